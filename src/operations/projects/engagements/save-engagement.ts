// POST and PUT /api/projects/{project_id}/engagements[/{id}] (docs/check-ins.md): staff record a
// student's engagement, and its author edits it. Evidence is a URL or a file, never both; a new
// one replaces the old, `remove_evidence` drops it. The file is checked (and an image re-encoded)
// before anything is written and stored last; a file the row no longer names is removed once the
// change is committed.
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { evidenceConflict, evidenceUrlProblem, occurredAtProblem } from '../../../domain/engagements.ts';
import { badRequest, forbidden } from '../../../lib/errors.ts';
import type { UploadedFile } from '../../../lib/files.ts';
import { storageKeys, type Storage } from '../../../storage/index.ts';
import { engagementOut, findEngagement, type EngagementOut } from './engagement-rows.ts';
import { prepareEvidence, type PreparedEvidence } from './evidence-file.ts';

export interface EngagementFields {
  engagement_type: string;
  note: string;
  occurred_at: Date;
  evidence_url?: string;
  attachment?: UploadedFile;
}

export interface EngagementChange extends Partial<EngagementFields> {
  remove_evidence?: boolean;
}

export interface EngagementServices {
  storage: Storage;
  afterCommit: (fn: () => void) => void;
  now: Date;
}

/** 400 for contradictory evidence, a URL of another scheme, or a date out of bounds. */
function checkFields(input: EngagementChange, now: Date): void {
  const conflict = evidenceConflict({
    evidence_url: input.evidence_url,
    hasAttachment: input.attachment !== undefined,
    remove_evidence: input.remove_evidence,
  });
  if (conflict) throw badRequest(conflict);
  const urlProblem = input.evidence_url === undefined ? null : evidenceUrlProblem(input.evidence_url);
  if (urlProblem) throw badRequest(urlProblem);
  const dateProblem = input.occurred_at === undefined ? null : occurredAtProblem(input.occurred_at, now);
  if (dateProblem) throw badRequest(dateProblem);
}

/** The evidence columns for a prepared file (stored under `key`), a URL, or none. */
function evidenceColumns(file: { evidence: PreparedEvidence; key: string } | null, url: string | null) {
  return {
    evidence_url: url,
    attachment_path: file?.key ?? null,
    attachment_content_type: file?.evidence.contentType ?? null,
    attachment_filename: file?.evidence.filename ?? null,
    attachment_bytes: file?.evidence.bytes ?? null,
  };
}

/** Stores the prepared file under its key, then removes what was made for it. */
async function storeEvidence(storage: Storage, file: { evidence: PreparedEvidence; key: string }): Promise<void> {
  try {
    await storage.put(file.key, { path: file.evidence.path });
  } finally {
    await file.evidence.discard();
  }
}

export async function createEngagement(
  em: Em,
  services: EngagementServices,
  projectId: number,
  authorId: number,
  input: EngagementFields,
): Promise<EngagementOut> {
  const { now } = services;
  checkFields(input, now);
  const evidence = input.attachment ? await prepareEvidence(input.attachment) : null;
  try {
    const k = db(em);
    const row = await k
      .insertInto('engagements')
      .values({
        project_id: projectId,
        author_id: authorId,
        engagement_type: input.engagement_type,
        note: input.note,
        occurred_at: input.occurred_at.toISOString(),
        ...evidenceColumns(null, input.evidence_url ?? null),
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (evidence) {
      const file = { evidence, key: storageKeys.engagementAttachment(row.id, now.getTime(), evidence.ext) };
      await k.updateTable('engagements').set(evidenceColumns(file, null)).where('id', '=', row.id).execute();
      const out = await engagementOut(em, projectId, row.id);
      // Stored last: a failure before leaves neither row nor file (a failed commit after it leaves
      // a file under an id no row will take again, as comment attachments do).
      await storeEvidence(services.storage, file);
      return out;
    }
    return await engagementOut(em, projectId, row.id);
  } finally {
    await evidence?.discard();
  }
}

/** Only its author edits an engagement; fields left out stay as they are. */
export async function updateEngagement(
  em: Em,
  services: EngagementServices,
  projectId: number,
  engagementId: number,
  callerId: number,
  input: EngagementChange,
): Promise<EngagementOut> {
  const { now } = services;
  const current = await findEngagement(em, projectId, engagementId, true);
  if (current.author_id !== callerId) throw forbidden('Only the author of an engagement may edit it');
  checkFields(input, now);
  const evidence = input.attachment ? await prepareEvidence(input.attachment) : null;
  try {
    const file = evidence && { evidence, key: storageKeys.engagementAttachment(current.id, now.getTime(), evidence.ext) };
    const newEvidence = file !== null || input.evidence_url !== undefined || input.remove_evidence === true;
    await db(em)
      .updateTable('engagements')
      .set({
        updated_at: now.toISOString(),
        ...(input.engagement_type === undefined ? {} : { engagement_type: input.engagement_type }),
        ...(input.note === undefined ? {} : { note: input.note }),
        ...(input.occurred_at === undefined ? {} : { occurred_at: input.occurred_at.toISOString() }),
        ...(newEvidence ? evidenceColumns(file, input.evidence_url ?? null) : {}),
      })
      .where('id', '=', current.id)
      .execute();
    const out = await engagementOut(em, projectId, current.id);
    if (file) await storeEvidence(services.storage, file);
    const old = current.attachment_path;
    if (newEvidence && old && old !== file?.key) services.afterCommit(() => void services.storage.delete(old).catch(() => undefined));
    return out;
  } finally {
    await evidence?.discard();
  }
}
