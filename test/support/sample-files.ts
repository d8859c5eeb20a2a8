// Small real files of each kind, built from their formats (not just a magic number), for content
// checks and uploads.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { messagePdf } from '../../src/lib/placeholder-pdf.ts';
import { rawZip } from './zips.ts';

/** A one-page PDF showing `text`. */
export const samplePdf = (text = 'Task sheet'): Buffer => messagePdf([text]);

/** A 1x1 red PNG: signature, IHDR, IDAT (zlib) and IEND chunks with their CRCs. */
export function samplePng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]); // 1x1, 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 1x1 transparent GIF89a. */
export const sampleGif = (): Buffer => Buffer.from('47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b', 'hex');

/** The start of a baseline JPEG (SOI, JFIF APP0) and its end marker: what a signature check reads. */
export const sampleJpeg = (): Buffer =>
  Buffer.concat([Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'), Buffer.alloc(16), Buffer.from('ffd9', 'hex')]);

/** A zip of two small entries. */
export const sampleZip = (): Buffer =>
  rawZip([
    ['readme.txt', 'Resources for the task\n'],
    ['data/input.csv', 'a,b\n1,2\n'],
  ]);

/** Writes `bytes` to a fresh temporary file (as an upload would be) and returns its path. */
export function tempFileOf(bytes: Buffer | string, name = 'upload'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'sample-')), name);
  writeFileSync(path, bytes);
  return path;
}

/** About 7,000 lines of Python: seconds of PDF rendering, long enough for a test to act in the middle of the job. */
export const bigProgram = (): string => `${Array.from({ length: 3500 }, (_, i) => `def f${i}(x):\n    return x * ${i}  # step ${i}`).join('\n')}\n`;
