// What each command of `npm run cli` does: the same procedures the API serves, called as the
// chosen user. Imports go in batches and their results are merged into one summary.
import { createWriteStream, writeFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { Services } from '../../src/trpc/context.ts';
import type { UploadedFile } from '../../src/lib/files.ts';
import { signIn, type As } from '../lib/caller.ts';
import type { Invocation } from './args.ts';
import { csvBatches } from './batches.ts';

type Row = { row: unknown; message: string };
export interface ImportSummary {
  success: Row[];
  ignored: Row[];
  errors: Row[];
}

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Progress of a batched import: called with the total rows, then the rows done after each batch. */
  progress?: { start(total: number): void; update(done: number): void; stop(): void };
  /** Where export-grades writes without --out. */
  stdout?: NodeJS.WritableStream;
}

type Importer = (as: As, file: UploadedFile, unitId: number) => Promise<ImportSummary>;

const IMPORTERS: Record<string, Importer> = {
  'import-users': (as, file) => as().csv.users.upload({ file }),
  enrol: (as, file, id) => as().csv.units.enrol({ id, file }),
  withdraw: (as, file, id) => as().csv.units.withdraw({ id, file }),
  'import-task-definitions': (as, file, unit_id) => as().units.taskDefinitions.csvUpload({ unit_id, file }),
};

/** Runs one command; answers the exit code (0, or 1 when a row or the command failed). */
export async function runCommand(services: Services, inv: Invocation, io: CliIo): Promise<number> {
  const as = await signIn(services, inv.as ?? services.config.adminUsername);
  const unitId = Number(inv.args[0]);
  const importer = IMPORTERS[inv.command];
  if (importer) {
    const path = inv.command === 'import-users' ? inv.args[0]! : inv.args[1]!;
    const summary = await importInBatches(as, importer, path, unitId, inv.batch, io);
    printSummary(summary, io);
    return summary.errors.length > 0 ? 1 : 0;
  }
  if (inv.command === 'rollover') {
    const input = inv.options['teaching-period']
      ? { id: unitId, teaching_period_id: Number(inv.options['teaching-period']) }
      : { id: unitId, start_date: inv.options.start, end_date: inv.options.end };
    const unit = await as().units.rollover(input);
    io.out(`rolled unit ${unitId} over to unit ${unit.id} (${unit.code}, ${unit.start_date} to ${unit.end_date})`);
    return 0;
  }
  if (inv.command === 'export-grades') {
    const file = await as().units.grades({ id: unitId });
    const target = inv.options.out ? createWriteStream(inv.options.out) : (io.stdout ?? process.stdout);
    if (Buffer.isBuffer(file.data)) {
      if (inv.options.out) writeFileSync(inv.options.out, file.data);
      else target.write(file.data);
    } else {
      await pipeline(file.data as Readable, target, { end: Boolean(inv.options.out) });
    }
    if (inv.options.out) io.err(`wrote ${inv.options.out}`);
    return 0;
  }
  throw new Error(`no such command ${inv.command}`);
}

async function importInBatches(as: As, importer: Importer, path: string, unitId: number, size: number, io: CliIo): Promise<ImportSummary> {
  const batches = await csvBatches(path, size);
  const total: ImportSummary = { success: [], ignored: [], errors: [] };
  const showProgress = batches.files.length > 1;
  try {
    if (showProgress) io.progress?.start(batches.rows);
    let done = 0;
    for (const file of batches.files) {
      const result = await importer(as, file, unitId);
      total.success.push(...result.success);
      total.ignored.push(...result.ignored);
      total.errors.push(...result.errors);
      done = Math.min(batches.rows, done + size);
      if (showProgress) io.progress?.update(done);
    }
  } finally {
    if (showProgress) io.progress?.stop();
    batches.close();
  }
  return total;
}

/** The counts, then every row that was not a success, as a table. */
export function printSummary(summary: ImportSummary, io: CliIo): void {
  const lines: string[][] = [['result', 'row', 'message']];
  for (const [kind, rows] of [
    ['error', summary.errors],
    ['ignored', summary.ignored],
  ] as const) {
    for (const r of rows) lines.push([kind, describe(r.row), r.message]);
  }
  io.out(`success ${summary.success.length}, ignored ${summary.ignored.length}, errors ${summary.errors.length}`);
  if (lines.length === 1) return;
  const widths = lines[0]!.map((_, c) => Math.min(60, Math.max(...lines.map((l) => l[c]!.length))));
  for (const l of lines)
    io.out(
      l
        .map((cell, c) => cell.slice(0, 60).padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    );
}

function describe(row: unknown): string {
  if (row && typeof row === 'object') {
    const r = row as Record<string, unknown>;
    return String(r.username ?? r.abbreviation ?? r.unit_code ?? JSON.stringify(row));
  }
  return String(row);
}
