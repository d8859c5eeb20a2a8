// Staff notes on a student's project (docs/marking/notes-moderation-escalation.md): private to the
// unit's staff. A note may mention other staff of the unit; each mention keeps the project's
// tasks in that person's inbox (inbox-rows.ts `mentioned`) until they mark it seen.
import { sql } from 'kysely';
import { db, isoTimestamp } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { badRequest, forbidden, notFound } from '../../../lib/errors.ts';

export interface StaffNoteOut {
  id: number;
  project_id: number;
  task_definition_id: number | null;
  text: string;
  author_id: number;
  author_name: string;
  created_at: string;
  updated_at: string;
  mentions: { user_id: number; name: string; seen_at: string | null }[];
}

export interface StaffNoteInput {
  text: string;
  task_definition_id?: number | null;
  mentioned_user_ids?: number[];
}

export const MAX_NOTE_LENGTH = 10_000;
const UNKNOWN_NOTE = 'Unable to find requested Staff note';

/** The project's notes (or one), oldest first, with their authors and mentions: one statement. */
export async function staffNoteRows(em: Em, projectId: number, noteId?: number): Promise<StaffNoteOut[]> {
  const rows = await db(em)
    .selectFrom('staff_notes as n')
    .innerJoin('users as a', 'a.id', 'n.author_id')
    .select([
      'n.id',
      'n.project_id',
      'n.task_definition_id',
      'n.text',
      'n.author_id',
      sql<string>`a.first_name || ' ' || a.last_name`.as('author_name'),
      'n.created_at',
      'n.updated_at',
      sql<{ user_id: number; name: string; seen_at: string | null }[]>`coalesce((
        select json_agg(json_build_object('user_id', m.user_id, 'name', mu.first_name || ' ' || mu.last_name, 'seen_at', m.seen_at) order by m.user_id)
        from staff_note_mentions m join users mu on mu.id = m.user_id where m.note_id = n.id), '[]')`.as('mentions'),
    ])
    .where('n.project_id', '=', projectId)
    .$if(noteId !== undefined, (q) => q.where('n.id', '=', noteId!))
    .orderBy('n.created_at')
    .orderBy('n.id')
    .execute();
  return rows.map((r) => ({
    ...r,
    created_at: isoTimestamp(r.created_at),
    updated_at: isoTimestamp(r.updated_at),
    mentions: r.mentions.map((m) => ({ ...m, seen_at: isoTimestamp(m.seen_at) })),
  }));
}

/** 400 unless every id is staff of the unit (a Tutor or Convenor unit role). */
async function checkMentions(em: Em, unitId: number, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const staff = await db(em).selectFrom('unit_roles').select('user_id').where('unit_id', '=', unitId).where('user_id', 'in', unique).execute();
  const found = new Set(staff.map((s) => s.user_id));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length > 0) throw badRequest(`mentioned_user_ids: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not staff of this unit`);
  return unique;
}

async function checkDefinition(em: Em, unitId: number, definitionId: number | null | undefined): Promise<void> {
  if (definitionId === null || definitionId === undefined) return;
  const row = await db(em).selectFrom('task_definitions').select('id').where('id', '=', definitionId).where('unit_id', '=', unitId).executeTakeFirst();
  if (!row) throw badRequest('task_definition_id: is not a task definition of this unit');
}

export async function createStaffNote(
  em: Em,
  project: { id: number; unitId: number },
  authorId: number,
  input: StaffNoteInput,
  now: Date,
): Promise<StaffNoteOut> {
  const mentions = await checkMentions(em, project.unitId, input.mentioned_user_ids ?? []);
  await checkDefinition(em, project.unitId, input.task_definition_id);
  const k = db(em);
  const note = await k
    .insertInto('staff_notes')
    .values({
      project_id: project.id,
      author_id: authorId,
      task_definition_id: input.task_definition_id ?? null,
      text: input.text,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (mentions.length > 0)
    await k
      .insertInto('staff_note_mentions')
      .values(mentions.map((user_id) => ({ note_id: note.id, user_id })))
      .execute();
  return (await staffNoteRows(em, project.id, note.id))[0]!;
}

async function findNote(em: Em, projectId: number, noteId: number): Promise<{ id: number; author_id: number }> {
  const note = await db(em)
    .selectFrom('staff_notes')
    .select(['id', 'author_id'])
    .where('id', '=', noteId)
    .where('project_id', '=', projectId)
    .forUpdate()
    .executeTakeFirst();
  if (!note) throw notFound(UNKNOWN_NOTE);
  return note;
}

/**
 * Only its author edits a note. New mentions start unseen; a mention kept keeps its state; one
 * left out is removed (and leaves that person's inbox).
 */
export async function updateStaffNote(
  em: Em,
  project: { id: number; unitId: number },
  noteId: number,
  callerId: number,
  input: Partial<StaffNoteInput>,
  now: Date,
): Promise<StaffNoteOut> {
  const note = await findNote(em, project.id, noteId);
  if (note.author_id !== callerId) throw forbidden('Only the author of a note may edit it');
  const mentions = input.mentioned_user_ids === undefined ? undefined : await checkMentions(em, project.unitId, input.mentioned_user_ids);
  if (input.task_definition_id !== undefined) await checkDefinition(em, project.unitId, input.task_definition_id);
  const k = db(em);
  await k
    .updateTable('staff_notes')
    .set({
      updated_at: now.toISOString(),
      ...(input.text === undefined ? {} : { text: input.text }),
      ...(input.task_definition_id === undefined ? {} : { task_definition_id: input.task_definition_id }),
    })
    .where('id', '=', note.id)
    .execute();
  if (mentions !== undefined) {
    await k
      .deleteFrom('staff_note_mentions')
      .where('note_id', '=', note.id)
      .$if(mentions.length > 0, (q) => q.where('user_id', 'not in', mentions))
      .execute();
    if (mentions.length > 0)
      await k
        .insertInto('staff_note_mentions')
        .values(mentions.map((user_id) => ({ note_id: note.id, user_id })))
        .onConflict((oc) => oc.columns(['note_id', 'user_id']).doNothing())
        .execute();
  }
  return (await staffNoteRows(em, project.id, note.id))[0]!;
}

/** Its author deletes a note; so may whoever oversees the unit's marking (a convenor), e.g. to remove something inappropriate. */
export async function deleteStaffNote(em: Em, projectId: number, noteId: number, callerId: number, mayDeleteAny: boolean): Promise<void> {
  const note = await findNote(em, projectId, noteId);
  if (note.author_id !== callerId && !mayDeleteAny) throw forbidden("Only the author of a note or the unit's convenor may delete it");
  await db(em).deleteFrom('staff_notes').where('id', '=', note.id).execute();
}

/** The caller has seen a note that mentions them: it leaves their inbox. Again is harmless. */
export async function markMentionSeen(em: Em, projectId: number, noteId: number, userId: number, now: Date): Promise<StaffNoteOut> {
  await findNote(em, projectId, noteId);
  const seen = await db(em)
    .updateTable('staff_note_mentions')
    .set({ seen_at: sql`coalesce(seen_at, ${now.toISOString()}::timestamptz)` })
    .where('note_id', '=', noteId)
    .where('user_id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  if (!seen) throw notFound('This note does not mention you');
  return (await staffNoteRows(em, projectId, noteId))[0]!;
}
