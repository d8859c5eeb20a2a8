// Escalations (docs/marking/notes-moderation-escalation.md): a tutor hands a task to the unit's
// convenors with a reason. While open it is in every convenor's inbox (inbox-rows.ts `escalated`);
// a convenor resolves it, optionally with a note. At most one open escalation per task (a partial
// unique index), so two tutors escalating at once cannot both open one.
import { sql } from 'kysely';
import { db, isoTimestamp } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { badRequest, notFound } from '../../../../lib/errors.ts';
import { ensureTask } from '../../../tasks/tasks.ts';

export interface EscalationOut {
  id: number;
  task_id: number;
  project_id: number;
  task_definition_id: number;
  reason: string;
  escalated_by_id: number;
  escalated_by_name: string;
  created_at: string;
  resolved_at: string | null;
  resolved_by_id: number | null;
  resolution_note: string | null;
}

export const MAX_REASON_LENGTH = 4_000;

/** The task's escalations (or one), oldest first: one statement. */
export async function escalationRows(em: Em, taskId: number | null, escalationId?: number): Promise<EscalationOut[]> {
  if (taskId === null) return [];
  const rows = await db(em)
    .selectFrom('task_escalations as e')
    .innerJoin('tasks as t', 't.id', 'e.task_id')
    .innerJoin('users as u', 'u.id', 'e.escalated_by_id')
    .select([
      'e.id',
      'e.task_id',
      't.project_id',
      't.task_definition_id',
      'e.reason',
      'e.escalated_by_id',
      sql<string>`u.first_name || ' ' || u.last_name`.as('escalated_by_name'),
      'e.created_at',
      'e.resolved_at',
      'e.resolved_by_id',
      'e.resolution_note',
    ])
    .where('e.task_id', '=', taskId)
    .$if(escalationId !== undefined, (q) => q.where('e.id', '=', escalationId!))
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute();
  return rows.map((r) => ({ ...r, created_at: isoTimestamp(r.created_at), resolved_at: isoTimestamp(r.resolved_at) }));
}

/** Opens an escalation of the task (creating the task if nobody has touched it yet); 400 when one is already open. */
export async function escalateTask(
  em: Em,
  task: { projectId: number; definitionId: number; unitId: number },
  userId: number,
  reason: string,
  now: Date,
): Promise<EscalationOut> {
  const taskId = await ensureTask(em, task.projectId, task.definitionId, now);
  const row = await db(em)
    .insertInto('task_escalations')
    .values({ unit_id: task.unitId, task_id: taskId, escalated_by_id: userId, reason, created_at: now.toISOString() })
    .onConflict((oc) => oc.column('task_id').where('resolved_at', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!row) throw badRequest('This task is already escalated: wait for the convenor to resolve it');
  return (await escalationRows(em, taskId, row.id))[0]!;
}

/** Resolves an open escalation of the task; 404 for one of another task, 400 when already resolved. */
export async function resolveEscalation(
  em: Em,
  taskId: number | null,
  escalationId: number,
  userId: number,
  note: string | undefined,
  now: Date,
): Promise<EscalationOut> {
  const k = db(em);
  const found =
    taskId === null
      ? undefined
      : await k
          .selectFrom('task_escalations')
          .select(['id', 'resolved_at'])
          .where('id', '=', escalationId)
          .where('task_id', '=', taskId)
          .forUpdate()
          .executeTakeFirst();
  if (!found) throw notFound('Unable to find requested Escalation');
  if (found.resolved_at !== null) throw badRequest('This escalation is already resolved');
  await k
    .updateTable('task_escalations')
    .set({ resolved_at: now.toISOString(), resolved_by_id: userId, resolution_note: note ?? null })
    .where('id', '=', escalationId)
    .execute();
  return (await escalationRows(em, taskId, escalationId))[0]!;
}
