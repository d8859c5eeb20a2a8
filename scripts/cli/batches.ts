// A CSV file cut into files of at most `size` rows, each with the header, so a long import runs as
// several calls of the same operation (one progress step each) instead of one long silent one.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeCsv, readCsv, writeCsv } from '../../src/domain/csv.ts';
import { UploadedFile } from '../../src/lib/files.ts';

export interface Batches {
  rows: number;
  files: UploadedFile[];
  /** Removes the temporary files. */
  close(): void;
}

export async function csvBatches(path: string, size: number): Promise<Batches> {
  const { headers, rows } = await readCsv(decodeCsv(readFileSync(path)));
  const dir = mkdtempSync(join(tmpdir(), 'course-cli-'));
  const files: UploadedFile[] = [];
  for (let from = 0; from < Math.max(rows.length, 1); from += size) {
    const part = rows.slice(from, from + size);
    const file = join(dir, `part-${files.length}.csv`);
    writeFileSync(
      file,
      writeCsv(
        headers,
        part.map((row) => headers.map((h) => row[h] ?? '')),
      ),
    );
    files.push(new UploadedFile(`part-${files.length}.csv`, 'text/csv', file, statSync(file).size));
  }
  return { rows: rows.length, files, close: () => rmSync(dir, { recursive: true, force: true }) };
}
