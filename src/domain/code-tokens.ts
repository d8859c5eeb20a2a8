// A small lexical tokenizer for code similarity (src/domain/code-similarity.ts). Winnowing compares token
// streams, so what matters is what survives renaming and reformatting: every identifier becomes
// one token kind and every literal another, while keywords, operators and punctuation are kept as
// written; comments and whitespace are dropped. It knows the comment and string forms of C-like
// languages (C, C++, C#, Java, JavaScript, TypeScript, Go, Rust, Swift, Kotlin, PHP), Python,
// Ruby and shell, SQL and Lua, and Pascal; anything else is read as C-like.

/** One token and where it stands in the source (0-based rows and columns, end inclusive). */
export interface CodeToken {
  text: string;
  row: number;
  col: number;
  endRow: number;
  endCol: number;
}

export type CodeFamily = 'c' | 'python' | 'pascal' | 'sql';

/** The token every identifier becomes, and every literal. */
export const IDENTIFIER = 'ID';
export const LITERAL = 'LIT';

const FAMILY_BY_EXTENSION: Record<string, CodeFamily> = {
  py: 'python',
  ipynb: 'python',
  rb: 'python',
  sh: 'python',
  bash: 'python',
  r: 'python',
  pl: 'python',
  yml: 'python',
  yaml: 'python',
  pas: 'pascal',
  pp: 'pascal',
  dpr: 'pascal',
  lpr: 'pascal',
  inc: 'pascal',
  sql: 'sql',
  lua: 'sql',
  hs: 'sql',
};

/** The comment and string rules that apply to a file, by its extension. */
export function codeFamily(filename: string): CodeFamily {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? '';
  return FAMILY_BY_EXTENSION[extension] ?? 'c';
}

// Keywords of the languages above, one set: a name that is a keyword elsewhere is rare enough
// not to matter, and one set keeps structure (if/while/return...) visible in every language.
const KEYWORDS = new Set(
  (
    'abstract and as assert async await begin bool boolean break byte case catch char class const constructor continue def default ' +
    'del delete do double downto elif else elsif end enum except export extends false final finally float fn for foreach from ' +
    'func function go goto if impl implements import in inline instanceof int interface is lambda let long loop match mod ' +
    'module mut namespace new nil none nonlocal not null of or override package pass private procedure program protected public ' +
    'raise record repeat return self short signed sizeof static struct super switch then this throw throws to trait true try ' +
    'type typedef typeof uint unless unsigned until use uses using var virtual void volatile when where while with yield ' +
    'local elseif'
  ).split(' '),
);

// SQL's own words, common names in other languages (values, table, order), so for SQL files only.
const SQL_KEYWORDS = new Set(
  (
    'select insert update delete create drop alter table values into from where join inner left right outer on group order by having limit ' +
    'distinct union set as and or not null'
  ).split(' '),
);

// Longest first, so `>>=` is one token rather than `>`, `>`, `=`.
const OPERATORS = [
  '>>>=',
  '<<=',
  '>>=',
  '>>>',
  '**=',
  '//=',
  '...',
  '..',
  '===',
  '!==',
  '<=>',
  '?.',
  '??',
  '=>',
  '->',
  '::',
  ':=',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '<<',
  '>>',
  '**',
  '//',
  '<>',
];

const isIdentStart = (c: string) => /[A-Za-z_$\u00C0-\uFFFF]/.test(c);
const isIdentPart = (c: string) => /[A-Za-z0-9_$\u00C0-\uFFFF]/.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

/**
 * The tokens of `source` under `family`'s comment and string rules. Never throws: an unclosed
 * string or comment runs to the end of the file, and an unknown character is its own token.
 */
export function codeTokens(source: string, family: CodeFamily = 'c'): CodeToken[] {
  const tokens: CodeToken[] = [];
  let i = 0;
  let row = 0;
  let col = 0;
  const n = source.length;

  // Moves past `count` characters, keeping row and column.
  const advance = (count: number) => {
    for (let k = 0; k < count && i < n; k++, i++) {
      if (source[i] === '\n') {
        row++;
        col = 0;
      } else col++;
    }
  };
  const emit = (text: string, length: number) => {
    const start = { row, col };
    advance(length);
    // The end is the last character of the token, which `advance` has just passed.
    tokens.push({ text, row: start.row, col: start.col, endRow: row, endCol: Math.max(col - 1, 0) });
  };
  const at = (s: string) => source.startsWith(s, i);
  const skipUntil = (close: string) => {
    const end = source.indexOf(close, i);
    advance(end < 0 ? n - i : end - i + close.length);
  };
  // A quoted literal from i: `quote` closes it; backslash escapes unless the family doubles quotes.
  const literalLength = (quote: string, escapes: boolean) => {
    let j = i + quote.length;
    while (j < n) {
      if (escapes && source[j] === '\\') j += 2;
      else if (source.startsWith(quote, j)) {
        if (!escapes && source.startsWith(quote + quote, j)) j += quote.length * 2;
        else return j + quote.length - i;
      } else if (quote.length === 1 && source[j] === '\n' && quote !== '`') return j - i;
      else j++;
    }
    return n - i;
  };

  while (i < n) {
    const c = source[i];
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n' || c === '\f' || c === '\v') {
      advance(1);
      continue;
    }
    // Comments.
    if (family === 'python' && c === '#') {
      skipUntil('\n');
      continue;
    }
    if (family === 'sql' && at('--')) {
      skipUntil('\n');
      continue;
    }
    if ((family === 'c' || family === 'sql') && at('/*')) {
      skipUntil('*/');
      continue;
    }
    if ((family === 'c' || family === 'pascal') && at('//')) {
      skipUntil('\n');
      continue;
    }
    if (family === 'pascal' && c === '{') {
      skipUntil('}');
      continue;
    }
    if (family === 'pascal' && at('(*')) {
      skipUntil('*)');
      continue;
    }
    // Literals: strings, characters, numbers.
    if (family === 'python' && (at('"""') || at("'''"))) {
      emit(LITERAL, literalLength(source.slice(i, i + 3), true));
      continue;
    }
    if (c === '"' || c === "'" || (c === '`' && family === 'c')) {
      emit(LITERAL, literalLength(c, family !== 'pascal' && family !== 'sql'));
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(source[i + 1] ?? '')) || (family === 'pascal' && c === '$' && /[0-9A-Fa-f]/.test(source[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < n && /[0-9A-Za-z_.]/.test(source[j])) {
        // An exponent's sign belongs to the number (1e-5).
        j += /[eE]/.test(source[j]) && /[+-]/.test(source[j + 1] ?? '') && !/^0[xX]/.test(source.slice(i, j)) ? 2 : 1;
      }
      // `1..10` in Pascal: the range operator is not part of the number.
      const dots = source.indexOf('..', i);
      if (dots >= 0 && dots < j) j = dots;
      emit(LITERAL, j - i);
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentPart(source[j])) j++;
      const word = source.slice(i, j);
      const key = family === 'pascal' || family === 'sql' ? word.toLowerCase() : word;
      emit(KEYWORDS.has(key) || (family === 'sql' && SQL_KEYWORDS.has(key)) ? key : IDENTIFIER, j - i);
      continue;
    }
    const op = OPERATORS.find((o) => at(o) && !(o === '//' && family !== 'python'));
    emit(op ?? c, op ? op.length : 1);
  }
  return tokens;
}

/** The code of a Jupyter notebook's code cells, one after another; the text itself for anything else. */
export function codeText(filename: string, content: string): string {
  if (!/\.ipynb$/i.test(filename)) return content;
  try {
    const notebook = JSON.parse(content) as { cells?: { cell_type?: string; source?: string | string[] }[] };
    return (notebook.cells ?? [])
      .filter((cell) => cell.cell_type === 'code')
      .map((cell) => (Array.isArray(cell.source) ? cell.source.join('') : (cell.source ?? '')))
      .join('\n');
  } catch {
    return content;
  }
}
