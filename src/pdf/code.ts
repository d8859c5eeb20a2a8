// Code files as the original prints them (beyond-spec.md §8.2): syntax colouring by extension,
// tabs expanded to 4, line numbers, long lines wrapped anywhere. Everything up to the drawing is
// pure: highlight → tokens per line → tabs expanded → wrapped rows with their line numbers.
import hljs from 'highlight.js';
import { rgb, type RGB } from 'pdf-lib';
import { BOTTOM, MARGIN, PAGE, TOP } from './layout.ts';
import { CODE_LINE_HEIGHT, CODE_SIZE } from './limits.ts';
import { GREY, type PdfWriter } from './writer.ts';

export const TAB_WIDTH = 4;
export { CODE_SIZE };
const LINE_HEIGHT = CODE_LINE_HEIGHT;

/** One piece of a line in one colour; `scope` is highlight.js's class (keyword, string, ...), '' for plain. */
export interface Token {
  text: string;
  scope: string;
}

/** A printed row: the source line's number on its first row only. */
export interface Row {
  number: number | null;
  tokens: Token[];
}

// The original's lexer map (Task.pygments_lang), in highlight.js's names; plain-text types map to null.
const PLAIN = ['txt', 'md', 'rmd', 'rpres', 'hdl', 'asm', 'jack', 'hack', 'tst', 'cmp', 'vm', 'sh', 'bat', 'dat', 'csv', 'out'];
const LANGUAGES: Record<string, string> = {
  pas: 'delphi',
  pp: 'delphi',
  cs: 'csharp',
  c: 'c',
  h: 'c',
  idc: 'c',
  cpp: 'cpp',
  hpp: 'cpp',
  'c++': 'cpp',
  'h++': 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  cp: 'cpp',
  java: 'java',
  js: 'javascript',
  json: 'json',
  ts: 'typescript',
  html: 'xml',
  rhtml: 'xml',
  xml: 'xml',
  css: 'css',
  scss: 'scss',
  rb: 'ruby',
  coffee: 'coffeescript',
  yaml: 'yaml',
  yml: 'yaml',
  sql: 'sql',
  vb: 'vbnet',
  tex: 'latex',
  rnw: 'latex',
  py: 'python',
  ipynb: 'python',
  r: 'r',
};

/** The highlight.js language for a file extension, or null for plain text. */
export function languageFor(extension: string): string | null {
  const ext = extension.replace(/^\./, '').toLowerCase();
  if (PLAIN.includes(ext)) return null;
  const name = LANGUAGES[ext] ?? ext;
  return hljs.getLanguage(name) ? name : null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };
const decodeEntities = (s: string) => s.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, e: string) => ENTITIES[e]);

/** Source text as lines of tokens, coloured by `language` (plain when null or unknown). */
export function highlightLines(source: string, language: string | null): Token[][] {
  const text = source.replace(/\r\n?/g, '\n');
  if (!language || !hljs.getLanguage(language)) return text.split('\n').map((line) => (line === '' ? [] : [{ text: line, scope: '' }]));
  const html = hljs.highlight(text, { language, ignoreIllegals: true }).value;
  const lines: Token[][] = [[]];
  const scopes: string[] = [];
  for (const part of html.split(/(<span class="[^"]*">|<\/span>)/)) {
    if (part.startsWith('<span'))
      scopes.push(
        /class="([^"]*)"/
          .exec(part)![1]
          .split(' ')[0]
          .replace(/^hljs-/, ''),
      );
    else if (part === '</span>') scopes.pop();
    else if (part !== '') {
      decodeEntities(part)
        .split('\n')
        .forEach((piece, i) => {
          if (i > 0) lines.push([]);
          if (piece !== '') lines[lines.length - 1].push({ text: piece, scope: scopes[scopes.length - 1] ?? '' });
        });
    }
  }
  return lines;
}

/** Replaces each tab by the spaces up to the next multiple of `width` columns, across tokens. */
export function expandTabs(tokens: Token[], width = TAB_WIDTH): Token[] {
  let column = 0;
  return tokens.map((token) => {
    let out = '';
    for (const char of token.text) {
      if (char === '\t') {
        const spaces = width - (column % width);
        out += ' '.repeat(spaces);
        column += spaces;
      } else {
        out += char;
        column++;
      }
    }
    return { ...token, text: out };
  });
}

/** Cuts a line of tokens into rows of at most `columns` characters (anywhere, as the original). */
export function wrapTokens(tokens: Token[], columns: number): Token[][] {
  const rows: Token[][] = [[]];
  let used = 0;
  for (const token of tokens) {
    let rest = [...token.text];
    while (rest.length > 0) {
      if (used === columns) {
        rows.push([]);
        used = 0;
      }
      const take = rest.slice(0, columns - used);
      rows[rows.length - 1].push({ text: take.join(''), scope: token.scope });
      used += take.length;
      rest = rest.slice(take.length);
    }
  }
  return rows;
}

/** The part of a source text that fills at most `maxRows` printed rows, and how many whole lines it holds. */
export interface SourceCut {
  text: string;
  /** Lines shown whole (a last line cut in the middle is not counted). */
  lines: number;
  /** True when `text` is all of `source`. */
  whole: boolean;
}

/**
 * Cuts `source` where its printed rows (tabs expanded, wrapped at `columns`, as codeRows prints
 * them) would pass `maxRows`, without colouring anything: the colouring and the drawing then cost
 * what the pages shown cost, however long the file is. A line longer than the rows left is cut
 * inside.
 */
export function cutToRows(source: string, columns: number, maxRows: number): SourceCut {
  const text = source.replace(/\r\n?/g, '\n');
  let rows = 0;
  let lines = 0;
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    let used = 0; // columns used on the line's current row
    let width = 0; // columns of the whole line so far (tabs stop at multiples of TAB_WIDTH)
    let lineRows = 1;
    for (let i = start; i < end; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0xdc00 && code <= 0xdfff) continue; // the second half of a surrogate pair: one character
      const columnsTaken = code === 9 ? TAB_WIDTH - (width % TAB_WIDTH) : 1;
      width += columnsTaken;
      for (let c = 0; c < columnsTaken; c++) {
        if (used === columns) {
          used = 0;
          lineRows++;
        }
        used++;
      }
      if (rows + lineRows > maxRows) return { text: text.slice(0, i), lines, whole: false };
    }
    if (rows + lineRows > maxRows) return { text: text.slice(0, start), lines, whole: false };
    rows += lineRows;
    lines++;
    start = end + 1;
    if (newline < 0) break;
  }
  return { text, lines, whole: true };
}

/** The rows to print for a source file: numbered lines, tabs expanded, wrapped at `columns`. */
export function codeRows(source: string, language: string | null, columns: number): Row[] {
  const lines = highlightLines(source, language);
  // A final newline does not make an empty last line.
  if (lines.length > 1 && lines[lines.length - 1].length === 0) lines.pop();
  return lines.flatMap((line, i) => wrapTokens(expandTabs(line), columns).map((tokens, j) => ({ number: j === 0 ? i + 1 : null, tokens })));
}

/** highlight.js scopes to colours (a light theme close to Pygments' default). */
export function colourOf(scope: string): [number, number, number] {
  switch (scope) {
    case 'keyword':
    case 'built_in':
    case 'literal':
    case 'selector-tag':
    case 'tag':
    case 'name':
      return [0, 0.5, 0];
    case 'string':
    case 'regexp':
    case 'char':
    case 'addition':
      return [0.73, 0.13, 0.13];
    case 'comment':
    case 'quote':
    case 'deletion':
      return [0.24, 0.48, 0.48];
    case 'number':
    case 'symbol':
    case 'bullet':
      return [0.4, 0.4, 0.4];
    case 'title':
    case 'section':
      return [0, 0, 1];
    case 'type':
    case 'class':
    case 'attr':
    case 'attribute':
    case 'variable':
    case 'template-variable':
    case 'params':
      return [0.1, 0.1, 0.6];
    case 'meta':
    case 'doctag':
    case 'subst':
      return [0.67, 0.13, 1];
    default:
      return [0, 0, 0];
  }
}

const rgbOf = (scope: string): RGB => rgb(...colourOf(scope));

/** How many rows of code fit from the writer's cursor down, on this page and `morePages` more. */
export function codeRowsFitting(writer: PdfWriter, morePages: number): number {
  const here = writer.page ? Math.max(0, Math.floor((writer.y - BOTTOM) / LINE_HEIGHT)) : 0;
  return here + morePages * Math.floor((TOP - BOTTOM) / LINE_HEIGHT);
}

/** Prints rows of code from the writer's cursor on, continuing over pages. */
export function drawCode(writer: PdfWriter, rows: Row[]): void {
  const gutter = writer.measure('00000 ', 'mono', CODE_SIZE);
  for (const row of rows) {
    const page = writer.ensure(LINE_HEIGHT);
    writer.y -= LINE_HEIGHT;
    if (row.number !== null) {
      const label = String(row.number);
      writer.text(page, label, MARGIN + gutter - writer.measure(`${label} `, 'mono', CODE_SIZE), writer.y, 'mono', CODE_SIZE, GREY);
    }
    let x = MARGIN + gutter;
    for (const token of row.tokens)
      x += writer.text(page, token.text, x, writer.y, token.scope === 'keyword' ? 'monoBold' : 'mono', CODE_SIZE, rgbOf(token.scope));
  }
}

/** How many monospaced columns fit beside the line numbers. */
export function codeColumns(writer: PdfWriter, indent = 0): number {
  const charWidth = writer.measure('M', 'mono', CODE_SIZE);
  return Math.floor((PAGE.width - 2 * MARGIN - indent - writer.measure('00000 ', 'mono', CODE_SIZE)) / charWidth);
}
