// Submission PDFs share each parsed font (src/pdf/parsed-fonts.ts): a render after the first
// parses no font file again, a PDF comes out byte for byte the same whatever was rendered before
// it in the same thread, and its text stays readable (ToUnicode) after a PDF with accented
// letters, whose subset made glyphs without characters.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument } from 'pdf-lib';
import { buildSubmissionPdf, type SubmittedFile } from '../../src/pdf/submission.ts';
import type { CoverInfo } from '../../src/pdf/cover.ts';
import { pdfPagesText } from '../support/pdf-text.ts';

const test = suite('pdf: parsed fonts shared between documents');

const cover = (taskName: string, firstName: string): CoverInfo => ({
  institution: 'Test University',
  product: 'Course Service',
  unitCode: 'SIT101',
  unitName: 'Introduction',
  taskName,
  submitter: { firstName, lastName: 'Student', username: 'astudent' },
  submittedAt: new Date('2026-03-10T09:30:00.000Z'),
  tutor: 'A Tutor',
});

const code = (text: string): SubmittedFile[] => [{ name: 'Program', kind: 'code', originalFilename: 'main.py', bytes: Buffer.from(text) }];

test('a render after the first parses no font file again', async () => {
  await buildSubmissionPdf(cover('Warm-up', 'Ada'), code('print("hello")\n'));
  const create = fontkit.create;
  let parses = 0;
  fontkit.create = ((...args: Parameters<typeof create>) => {
    parses++;
    return create(...args);
  }) as typeof create;
  try {
    await buildSubmissionPdf(cover('Task 1', 'Ben'), code('def f(x):\n    return x * 2\n'));
    await buildSubmissionPdf(cover('Task 2', 'Chloé'), code('# Grüße, ¿qué tal? ñ ø ß\nprint(1)\n'));
  } finally {
    fontkit.create = create;
  }
  assert.is(parses, 0);
});

test('a PDF is the same bytes whatever was rendered before it, other glyphs included', async () => {
  const first = await buildSubmissionPdf(cover('Task A', 'Dana'), code('values = [1, 2, 3]\nprint(sum(values))\n'));
  const other = await buildSubmissionPdf(cover('Tâche B — ½', 'Élodie'), code('# Ωμέγα, Привет, ﬁ ligature, →\nx = "日本語"\n'));
  const again = await buildSubmissionPdf(cover('Task A', 'Dana'), code('values = [1, 2, 3]\nprint(sum(values))\n'));
  assert.ok(Buffer.from(first.bytes).equals(Buffer.from(again.bytes)), 'the same inputs gave different bytes after another document');
  assert.ok(!Buffer.from(first.bytes).equals(Buffer.from(other.bytes)));
  assert.is((await PDFDocument.load(other.bytes)).getPageCount(), other.pages);
});

test("a PDF's text reads back whole after a PDF with accented letters", async () => {
  await buildSubmissionPdf(cover('Café', 'Zoë'), code('# façade, ça, déjà, über, niño, Ω\n'));
  const { bytes } = await buildSubmissionPdf(cover('Task C', 'Ben'), code('print("second race")\n'));
  const [front, body] = await pdfPagesText(bytes);
  assert.match(body!, 'print ( "second race" )');
  assert.match(front!, 'Task C');
  assert.not.match(`${front}${body}`, '\uFFFD');
});

test.run();
