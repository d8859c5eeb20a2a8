// Task-resource documents registered with the service as "group attachments" of the definition's
// assignment, so students' copies of the template are not flagged (behaviour.md §11):
// created → has_id → uploaded → complete.
import { createHash } from 'node:crypto';
import { SimcheckGroupAttachment, TaskDefinition, Unit, type ISimcheckGroupAttachment } from '../../../schema/index.ts';
import type { RemoteStatus, StreamedFile } from '../../adapters/simcheck.ts';
import type { Em } from '../../db/orm.ts';
import { NotAZipError, readZip, type ZipEntryIn } from '../../lib/zip.ts';
import { storageKeys, type Storage } from '../../storage/index.ts';
import { call, fail, markComplete, reschedule, type ActionRun } from './simcheck-actions.ts';
import { ensureGroupId, groupContext, isChecked } from './simcheck-submission.ts';
import type { ISimcheckAction } from '../../../schema/index.ts';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refId } from '../../db/refs.ts';

type Action = ISimcheckAction;
const MAX_ATTACHMENT_BYTES = 100 * 1024 * 1024;

/** Word documents of a resources zip that become attachments: `.doc`/`.docx`, at least 50 bytes, not `__MACOSX`. */
export function isAttachmentName(name: string, size: number): boolean {
  return /\.docx?$/i.test(name) && size >= 50 && !name.split('/').includes('__MACOSX');
}

/**
 * Runs `fn` on a copy of the definition's resources zip on this worker's own disk (a zip is read
 * by its central directory at the end, so it needs a file), streamed there from the store and
 * removed afterwards; null when there is none.
 */
async function withResourcesZip<T>(storage: Storage, definitionId: number, fn: (path: string) => Promise<T>): Promise<T | null> {
  const stored = await storage.open(storageKeys.taskResources(definitionId));
  if (!stored) return null;
  const dir = await mkdtemp(join(tmpdir(), 'simcheck-'));
  try {
    const path = join(dir, 'resources.zip');
    await pipeline(stored.stream, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
    return await fn(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The declared size, checked against the limit before anything is read (yauzl holds the bytes to it). */
function boundedEntry(entry: ZipEntryIn): ZipEntryIn {
  if (entry.size > MAX_ATTACHMENT_BYTES) throw new NotAZipError(`entry ${JSON.stringify(entry.name)} is larger than ${MAX_ATTACHMENT_BYTES} bytes`);
  return entry;
}

/**
 * Runs `fn` on one entry of the definition's resources zip, streamed (its declared size, which
 * yauzl holds the bytes to, goes as Content-Length); `{ found: false }` when the zip or the entry is gone.
 */
async function withResourceFile<T>(
  storage: Storage,
  definitionId: number,
  filename: string,
  fn: (file: StreamedFile) => Promise<T>,
): Promise<{ found: true; result: T } | { found: false }> {
  const done = await withResourcesZip(storage, definitionId, async (path) => {
    for await (const entry of readZip(path)) {
      if (entry.name !== filename) continue;
      const stream = await boundedEntry(entry).open();
      return { found: true as const, result: await fn({ stream, size: entry.size }).finally(() => stream.destroy()) };
    }
    return null;
  });
  return done ?? { found: false };
}

/** The SHA-1 of an entry's bytes, hashed as they stream by. */
async function entrySha1(entry: ZipEntryIn): Promise<string> {
  const hash = createHash('sha1');
  await pipeline(await boundedEntry(entry).open(), hash);
  return hash.digest('hex');
}

/**
 * Brings the definition's attachments in line with its resources zip when one of its documents
 * asks for a check: a new or changed Word document gets a new attachment row. Returns the ids of
 * the new rows, whose uploads the caller queues.
 */
export async function syncGroupAttachments(em: Em, storage: Storage, definitionId: number): Promise<number[]> {
  const definition = await em.findOne(TaskDefinition, { id: definitionId });
  if (!definition || !(definition.uploadRequirements ?? []).some((r) => isChecked(r))) return [];
  const created: number[] = [];
  await withResourcesZip(storage, definitionId, async (path) => {
    for await (const entry of readZip(path)) {
      if (!isAttachmentName(entry.name, entry.size)) continue;
      const sha1 = await entrySha1(entry);
      const existing = await em.findOne(SimcheckGroupAttachment, { taskDefinition: definitionId, filename: entry.name }, { orderBy: { id: 'desc' } });
      if (existing?.fileSha1 === sha1) continue;
      const row = em.create(SimcheckGroupAttachment, { taskDefinition: definitionId, filename: entry.name, fileSha1: sha1, status: 'created' } as never);
      await em.flush();
      created.push(refId(row));
    }
  });
  return created;
}

async function loadAttachment(run: ActionRun, action: Action): Promise<ISimcheckGroupAttachment | null> {
  return run.em.findOne(SimcheckGroupAttachment, { id: Number(action.params?.attachmentId) });
}

/** The upload action's step runner for one attachment. */
export async function runUploadAttachment(run: ActionRun, action: Action): Promise<void> {
  const attachment = await loadAttachment(run, action);
  if (!attachment) return fail(action, run.now, 'missing_group', 'The group attachment is no longer recorded');
  if (attachment.status === 'complete') return markComplete(action);
  const definitionId = refId(attachment.taskDefinition);
  const groupId = await ensureRemoteGroup(run, action, definitionId);
  if (!groupId) return;
  if (attachment.status === 'created' || !attachment.remoteId) {
    const added = await call(
      run,
      action,
      `Group attachment ${attachment.id} - fetching id`,
      () => run.client.addGroupAttachment(groupId, attachment.filename),
      [{ status: 404, code: 'missing_group', message: 'Assessment not found by the similarity service' }],
    );
    if (!added) return;
    attachment.remoteId = added.id;
    attachment.status = 'has_id';
    reschedule(action, run.now);
  }
  if (attachment.status === 'has_id') {
    const sent = await withResourceFile(run.storage, definitionId, attachment.filename, (file) =>
      call(
        run,
        action,
        `Group attachment ${attachment.id} - uploading attachment`,
        () => run.client.uploadGroupAttachment(groupId, attachment.remoteId!, attachment.filename, file),
        [
          { status: 413, code: 'invalid_submission_size_too_large' },
          { status: 422, code: 'invalid_submission_size_empty' },
          { status: 404, code: 'missing_group', message: 'Assessment not found by the similarity service' },
        ],
      ),
    );
    if (!sent.found) return fail(action, run.now, 'missing_submission', `${attachment.filename} is no longer in the task resources`);
    if (action.errorCode) return;
    attachment.status = 'uploaded';
    reschedule(action, run.now);
    return;
  }
  if (attachment.status === 'uploaded') {
    const status = await call(run, action, `Group attachment ${attachment.id} - fetching attachment status`, () =>
      run.client.groupAttachmentStatus(groupId, attachment.remoteId!),
    );
    return updateFromAttachmentStatus(run, action, attachment, status);
  }
}

/** From the service's answer or its GROUP_ATTACHMENT_COMPLETE webhook. */
export function updateFromAttachmentStatus(run: ActionRun, action: Action, attachment: ISimcheckGroupAttachment, status: RemoteStatus | undefined): void {
  if (!status) return;
  if (status.status === 'COMPLETE') {
    attachment.status = 'complete';
    markComplete(action);
  } else if (status.status === 'ERROR') {
    fail(action, run.now, 'custom_error', `The similarity service could not process the attachment: ${status.error_code ?? 'unknown error'}`);
  } else {
    action.retry = true;
  }
}

/** The definition's assignment exists on the service before anything is attached to it. */
async function ensureRemoteGroup(run: ActionRun, action: Action, definitionId: number): Promise<string | null> {
  const groupId = await ensureGroupId(run.em, definitionId);
  if (action.params?.groupPut === groupId) return groupId;
  const definition = await run.em.findOneOrFail(TaskDefinition, { id: definitionId });
  const unit = await run.em.findOneOrFail(Unit, { id: refId(definition.unit) });
  const done = await call(run, action, `Assignment ${groupId} - create or update for ${definition.abbreviation}`, async () => {
    await run.client.putGroup(groupId, {
      name: `${definition.abbreviation} ${definition.name}`,
      group_context: await groupContext(run.em, unit),
      due_date: definition.dueDate ? new Date(definition.dueDate).toISOString() : null,
    });
    return true;
  });
  if (!done) return null;
  action.params = { ...action.params, groupPut: groupId };
  return groupId;
}

/** Removes an attachment's remote copy (its row is removed by the caller). */
export async function runDeleteAttachment(run: ActionRun, action: Action): Promise<void> {
  const groupId = String(action.params?.groupId ?? '');
  const attachmentId = String(action.params?.remoteId ?? '');
  if (!groupId || !attachmentId) return fail(action, run.now, 'custom_error', 'Group attachment id or group id missing - cannot delete group attachment');
  const deleted = await call(
    run,
    action,
    `Deleting group attachment ${attachmentId}`,
    () => run.client.deleteGroupAttachment(groupId, attachmentId).then(() => true),
    [
      { status: 404, code: 'custom_error', message: 'Group attachment not found by the similarity service' },
      { status: 409, code: 'custom_error', message: 'Group attachment is in an error state' },
    ],
  );
  if (deleted) markComplete(action);
}
