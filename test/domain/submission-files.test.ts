import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  extensionOf,
  filesMatchRequirements,
  isTextLike,
  knownExtension,
  parseSubmissionTimestamp,
  storedExtension,
  timestampLines,
} from '../../src/domain/submission-files.ts';

const test = suite('domain: submission files');

test('files match requirements exactly by key: none missing, none extra, none twice', () => {
  assert.ok(filesMatchRequirements(['file0', 'file1'], ['file1', 'file0']));
  assert.ok(filesMatchRequirements([], []));
  assert.not.ok(filesMatchRequirements(['file0', 'file1'], ['file0']));
  assert.not.ok(filesMatchRequirements(['file0'], ['file0', 'file1']));
  assert.not.ok(filesMatchRequirements(['file0', 'file1'], ['file0', 'file2']));
  assert.not.ok(filesMatchRequirements(['file0', 'file0'], ['file0', 'file0']));
});

test('code: text-like content and a known extension (or none)', () => {
  assert.equal(['main.PY', 'Makefile', 'a.ipynb', 'x.tar.gz', 'C:\\work\\run.sh'].map(knownExtension), [true, true, true, true, true]);
  assert.equal(['run.exe', 'doc.docx', 'a.py.exe'].map(knownExtension), [false, false, false]);
  assert.equal(extensionOf('Report.Final.PDF'), 'pdf');
  assert.equal(['text/plain', 'text/x-c', 'application/json', 'application/xml'].map(isTextLike), [true, true, true, true]);
  assert.equal(['application/pdf', 'image/png', 'application/octet-stream', 'application/zip'].map(isTextLike), [false, false, false, false]);
});

test('stored extensions: documents are PDFs, images their detected type, code its own', () => {
  assert.is(storedExtension('document', 'application/pdf', 'report.PDFX'), 'pdf');
  assert.is(storedExtension('image', 'image/jpeg', 'photo.png'), 'jpg');
  assert.is(storedExtension('code', 'text/plain', 'Main.Java'), 'java');
  assert.is(storedExtension('code', 'text/plain', 'Makefile'), '');
});

test('timestamps: newest first, numbered in the order made; ISO or unix seconds parsed', () => {
  const at = (h: number) => new Date(Date.UTC(2026, 2, 2, h));
  assert.is(timestampLines([at(3), at(2)], 12), 'Submission 12: 2026-03-02T03:00:00.000Z\nSubmission 11: 2026-03-02T02:00:00.000Z\n');
  assert.is(timestampLines([], 0), '');
  assert.equal(parseSubmissionTimestamp('2026-03-02T03:00:00.123Z'), { at: new Date('2026-03-02T03:00:00.123Z'), precision: 'milliseconds' });
  assert.equal(parseSubmissionTimestamp('2026-03-02T13:00:00+10:00')?.at, at(3));
  assert.equal(parseSubmissionTimestamp('1772420400'), { at: at(3), precision: 'second' });
  assert.equal(['yesterday', '2026-03-02', '2026-13-40T00:00Z', ''].map(parseSubmissionTimestamp), [undefined, undefined, undefined, undefined]);
});

test.run();
