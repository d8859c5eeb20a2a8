// A portfolio's extra parts (behaviour.md §5.4): stored under their row's id, listed as
// `{kind, name, idx}`. The learning summary report is always part 0; other parts take the next
// index; the PDF job makes the draft task's PDF part 0 (useDraftAsSummaryReport). This file is the
// one writer of the rows. The compiled portfolio itself is made by the workers.
import { sql } from 'kysely';
import type { UploadKind } from '../../../../../schema/enums.ts';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { storedExtension } from '../../../../domain/submission-files.ts';
import { storageKeys, type Storage } from '../../../../storage/index.ts';

export const LEARNING_SUMMARY_REPORT = 'LearningSummaryReport';

export interface PartListed {
  kind: UploadKind;
  name: string;
  idx: number;
}

/** The parts of a project's portfolio in index order: one query. */
export async function portfolioParts(em: Em, projectId: number): Promise<PartListed[]> {
  return db(em).selectFrom('portfolio_parts').select(['kind', 'name', 'idx']).where('project_id', '=', projectId).orderBy('idx').execute();
}

/** `NNN-<kind>-<name>`: how the original names a part in its portfolio folder. */
export const partLabel = (part: PartListed): string => `${String(part.idx).padStart(3, '0')}-${part.kind}-${part.name}`;

/**
 * Adds a part from an uploaded file (already checked for its kind). Runs in the caller's
 * transaction with the project row locked, so two uploads at once take different indexes. Returns
 * the part and the keys of stored files it replaced (to delete after commit).
 */
export async function addPortfolioPart(
  em: Em,
  storage: Storage,
  projectId: number,
  upload: { name: string; kind: UploadKind; filename: string; path: string; detected: string },
): Promise<{ part: PartListed; replaced: string[] }> {
  const k = db(em);
  await sql`select id from projects where id = ${projectId} for update`.execute(k);
  const summary = upload.name === LEARNING_SUMMARY_REPORT && upload.kind === 'document';
  const filename = upload.filename.trim().slice(0, 255) || 'file';
  let idx: number;
  let replaced: string[] = [];
  if (summary) {
    idx = 0;
    const old = await k.deleteFrom('portfolio_parts').where('project_id', '=', projectId).where('idx', '=', 0).returning('storage_key').execute();
    replaced = old.map((r) => r.storage_key);
    await k.updateTable('projects').set({ uses_draft_learning_summary: false }).where('id', '=', projectId).execute();
  } else {
    const last = await k
      .selectFrom('portfolio_parts')
      .select((e) => e.fn.max('idx').as('idx'))
      .where('project_id', '=', projectId)
      .executeTakeFirst();
    idx = Math.max(1, (last?.idx ?? 0) + 1);
  }
  const part: PartListed = { kind: upload.kind, name: summary ? `${LEARNING_SUMMARY_REPORT}.pdf` : filename, idx };
  const partId = await insertPart(em, projectId, { ...part, originalFilename: filename });
  const key = storageKeys.portfolioPart(projectId, partId, storedExtension(upload.kind, upload.detected, filename));
  await k.updateTable('portfolio_parts').set({ storage_key: key }).where('id', '=', partId).execute();
  await storage.put(key, { path: upload.path });
  return { part, replaced };
}

/** A part's row, without its stored file yet (the key names the row's id): the row's id. */
async function insertPart(em: Em, projectId: number, part: PartListed & { originalFilename: string }): Promise<number> {
  const row = await db(em)
    .insertInto('portfolio_parts')
    .values({
      project_id: projectId,
      idx: part.idx,
      kind: part.kind,
      name: part.name,
      original_filename: part.originalFilename,
      storage_key: '',
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * behaviour.md §5.4: the unit's draft task's PDF (stored under `pdfKey`) as portfolio part 0 of
 * these tasks' projects that have no learning summary report or still use the draft's. Called by
 * the PDF job in its transaction; each project row is locked, as an upload of part 0 locks it.
 */
export async function useDraftAsSummaryReport(em: Em, storage: Storage, taskIds: number[], pdfKey: string): Promise<void> {
  const k = db(em);
  const projects = await k
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('units as u', 'u.id', 'p.unit_id')
    .select(['p.id', 'p.uses_draft_learning_summary'])
    .where('t.id', 'in', taskIds)
    .whereRef('u.draft_task_definition_id', '=', 't.task_definition_id')
    .execute();
  for (const project of projects) {
    await sql`select id from projects where id = ${project.id} for update`.execute(k);
    const current = await k
      .selectFrom('portfolio_parts')
      .select(['id', 'storage_key'])
      .where('project_id', '=', project.id)
      .where('idx', '=', 0)
      .executeTakeFirst();
    if (current && !project.uses_draft_learning_summary) continue;
    const name = `${LEARNING_SUMMARY_REPORT}.pdf`;
    const partId = current?.id ?? (await insertPart(em, project.id, { idx: 0, kind: 'document', name, originalFilename: name }));
    const key = storageKeys.portfolioPart(project.id, partId, 'pdf');
    await k.updateTable('portfolio_parts').set({ storage_key: key, kind: 'document', name }).where('id', '=', partId).execute();
    await k.updateTable('projects').set({ uses_draft_learning_summary: true }).where('id', '=', project.id).execute();
    if (!(await storage.copy(pdfKey, key))) throw new Error(`could not copy ${pdfKey} to ${key}`);
  }
}

/** Removes the part with this index, kind and name; its stored file's key, or null when there is none. */
export async function removePortfolioPart(em: Em, projectId: number, part: PartListed): Promise<string | null> {
  const removed = await db(em)
    .deleteFrom('portfolio_parts')
    .where('project_id', '=', projectId)
    .where('idx', '=', part.idx)
    .where('kind', '=', part.kind)
    .where('name', '=', part.name)
    .returning('storage_key')
    .executeTakeFirst();
  return removed?.storage_key ?? null;
}
