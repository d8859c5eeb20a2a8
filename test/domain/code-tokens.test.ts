import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { codeFamily, codeText, codeTokens, IDENTIFIER as I, LITERAL as L } from '../../src/domain/code-tokens.ts';
import { compareCode } from '../../src/domain/code-similarity.ts';

const test = suite('domain: code tokens');
const texts = (source: string, filename = 'x.c') => codeTokens(source, codeFamily(filename)).map((t) => t.text);

test('C-like: identifiers and literals become one kind each; keywords, operators and punctuation stay; comments and spacing go', () => {
  const source = `/* header */\nint total = count * 2; // twice\nif (total >= 10) { puts("big"); total += 'x'; }`;
  assert.equal(texts(source), ['int', I, '=', I, '*', L, ';', 'if', '(', I, '>=', L, ')', '{', I, '(', L, ')', ';', I, '+=', L, ';', '}']);
});

test('renaming, re-spacing and re-commenting a program leave its tokens unchanged', () => {
  const a = 'for (int i = 0; i < n; i++) {\n  sum += a[i]; // add\n}';
  const b = '/* loop */ for(int k=0;k<len;k++){total+=values[k];}';
  assert.equal(texts(a), texts(b));
  assert.equal(texts('let x = a?.b ?? 1; const f = (y) => y === 2;', 'x.ts'), [
    'let',
    I,
    '=',
    I,
    '?.',
    I,
    '??',
    L,
    ';',
    'const',
    I,
    '=',
    '(',
    I,
    ')',
    '=>',
    I,
    '===',
    L,
    ';',
  ]);
});

test('Python: # comments and docstrings, // is an operator', () => {
  assert.equal(texts('def f(x):\n    """doc"""\n    return x // 2  # half\n', 'a.py'), ['def', I, '(', I, ')', ':', L, 'return', I, '//', L]);
  assert.equal(codeFamily('notebook.ipynb'), 'python');
});

test('Pascal: { } and (* *) comments, doubled quotes in strings, keywords in any case, 1..10 is two numbers around a range', () => {
  const source = "{ main }\nBEGIN (* start *)\n  WriteLn('it''s');\n  for i := 1..10 do x := $FF;\nend.";
  assert.equal(texts(source, 'p.pas'), ['begin', I, '(', L, ')', ';', 'for', I, ':=', L, '..', L, 'do', I, ':=', L, ';', 'end', '.']);
});

test('SQL: -- comments; unknown extensions read as C-like; unclosed strings and comments end the file without error', () => {
  assert.equal(texts("SELECT name FROM t -- all\nWHERE id = 'a';", 'q.sql'), ['select', I, 'from', I, 'where', I, '=', L, ';']);
  assert.equal(codeFamily('Main.kt'), 'c');
  assert.equal(texts('x = "open'), [I, '=', L]);
  assert.equal(texts('x /* open'), [I]);
});

test('positions: rows and columns of each token, for matching the regions back to the source', () => {
  const [a, , b] = codeTokens('ab =\n  "cd"');
  assert.equal([a.row, a.col, a.endRow, a.endCol], [0, 0, 0, 1]);
  assert.equal([b.row, b.col, b.endRow, b.endCol], [1, 2, 1, 5]);
});

test('a notebook is compared by the code of its code cells', () => {
  const nb = JSON.stringify({
    cells: [
      { cell_type: 'markdown', source: ['# Title'] },
      { cell_type: 'code', source: ['x = 1\n', 'print(x)'] },
    ],
  });
  assert.is(codeText('a.ipynb', nb), 'x = 1\nprint(x)');
  assert.is(codeText('a.ipynb', 'not json'), 'not json');
});

test('compareCode: a renamed copy shares all of its fingerprints, unrelated code almost none', () => {
  const a = 'int f(int n) { int s = 0; for (int i = 0; i < n; i++) { if (i % 2 == 0) s += i; else s -= 1; } return s; }';
  const b = a.replace(/\bs\b/g, 'acc').replace(/\bi\b/g, 'j').replace(/\bn\b/g, 'm').replace(/\bf\b/g, 'g');
  const c = 'void show(char *text) { while (*text) { putchar(*text); text++; } puts(""); }';
  const options = { kgramLength: 12, window: 8 };
  const matches = compareCode(
    [
      { key: 'a', files: [{ filename: 'a.c', content: a }] },
      { key: 'b', files: [{ filename: 'b.c', content: b }] },
      { key: 'c', files: [{ filename: 'c.c', content: c }] },
    ],
    options,
  );
  const ab = matches.find((m) => m.left === 'a' && m.right === 'b');
  assert.equal([ab?.leftPct, ab?.rightPct], [100, 100]);
  assert.not.ok(matches.some((m) => (m.left === 'c' || m.right === 'c') && Math.max(m.leftPct, m.rightPct) > 20));
});

test.run();
