// A group task's shared submission (behaviour.md §4.2 step 6): which members' tasks move together.
import { sql } from 'kysely';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { CLOSED } from '../../domain/task-status.ts';
import { forbidden } from '../../lib/errors.ts';
import type { TaskStatus } from '../../../schema/enums.ts';
import { ensureTasks } from './tasks.ts';

export interface Contribution {
  project_id: number;
  pct: number;
  pts: number;
}

interface GroupTask {
  id: number;
  project_id: number;
  task_definition_id: number;
  group_submission_id: number | null;
  group_set_id: number;
}

/**
 * The tasks of the group submission `task` belongs to, creating it (and the members' tasks) when
 * needed. A submission (`submitter`) re-forms it when the group's members changed since, records
 * the submitter and the members' contributions (default: an equal share and 3 points), and
 * leaves out members whose task is closed or who contributed nothing. The group row is locked,
 * so members submitting at once form one submission.
 */
export async function groupSubmissionTasks(
  em: Em,
  task: GroupTask,
  options: { submitter?: boolean; contributions?: Contribution[]; now: Date },
): Promise<number[]> {
  const k = db(em);
  const found = await k
    .selectFrom('group_memberships as gm')
    .innerJoin('groups as g', 'g.id', 'gm.group_id')
    .select('g.id')
    .where('gm.project_id', '=', task.project_id)
    .where('gm.active', '=', true)
    .where('g.group_set_id', '=', task.group_set_id)
    .orderBy('g.id')
    .executeTakeFirst();
  if (!found) {
    const set = await k.selectFrom('group_sets').select('name').where('id', '=', task.group_set_id).executeTakeFirst();
    throw forbidden(`This task requires a group. Ensure you are in a group for the unit's ${set?.name ?? 'group set'}`);
  }
  await sql`select id from groups where id = ${found.id} for update`.execute(k);
  // Read under the group's lock: a member's submission that just finished may have re-formed it.
  const gsId = (await k.selectFrom('tasks').select('group_submission_id').where('id', '=', task.id).executeTakeFirstOrThrow()).group_submission_id;
  const members = (
    await k
      .selectFrom('group_memberships as gm')
      .innerJoin('projects as p', 'p.id', 'gm.project_id')
      .select('p.id')
      .where('gm.group_id', '=', found.id)
      .where('gm.active', '=', true)
      .where('p.enrolled', '=', true)
      .orderBy('p.id')
      .execute()
  ).map((r) => r.id);
  if (!members.includes(task.project_id)) members.push(task.project_id);

  const current = await k
    .selectFrom('tasks')
    .select('id')
    .select('project_id')
    .where('group_submission_id', '=', gsId ?? -1)
    .execute();
  const sameMembers = current.length === members.length && current.every((t) => members.includes(t.project_id));
  if (gsId !== null && (sameMembers || !options.submitter)) {
    if (options.submitter) await k.updateTable('group_submissions').set({ submitted_by_id: task.project_id }).where('id', '=', gsId).execute();
    if (options.submitter && options.contributions) await recordContributions(em, gsId, options.contributions);
    return current.map((t) => t.id).sort((a, b) => a - b);
  }

  const created = await k
    .insertInto('group_submissions')
    .values({ group_id: found.id, task_definition_id: task.task_definition_id, submitted_by_id: task.project_id, created_at: options.now.toISOString() })
    .returning('id')
    .executeTakeFirstOrThrow();
  const taskIds = await ensureTasks(
    em,
    members.map((projectId) => ({ projectId, taskDefinitionId: task.task_definition_id })),
    options.now,
  );
  const rows = await k.selectFrom('tasks').select(['id', 'project_id', 'status']).where('id', 'in', taskIds).execute();
  const share = contributionsFor(members, options.contributions);
  const joining = rows.filter((r) => r.id === task.id || (!CLOSED.has(r.status as TaskStatus) && (share.get(r.project_id)?.pct ?? 0) > 0));
  for (const r of joining) {
    const c = share.get(r.project_id);
    await k
      .updateTable('tasks')
      .set({ group_submission_id: created.id, contribution_pct: c?.pct ?? null, contribution_pts: c?.pts ?? null })
      .where('id', '=', r.id)
      .execute();
  }
  if (gsId !== null) {
    await sql`delete from group_submissions gs where gs.id = ${gsId}
      and not exists (select 1 from tasks t where t.group_submission_id = gs.id)`.execute(k);
  }
  return joining.map((r) => r.id).sort((a, b) => a - b);
}

/** Each member's share: as given (pct at least 0, points 0 to 5), else an equal split and 3 points. */
function contributionsFor(members: number[], given: Contribution[] | undefined): Map<number, { pct: number; pts: number }> {
  const out = new Map<number, { pct: number; pts: number }>();
  const equal = Math.floor(100 / Math.max(members.length, 1));
  for (const m of members) {
    const c = given?.find((g) => g.project_id === m);
    out.set(m, c ? { pct: Math.max(0, Math.round(c.pct)), pts: Math.min(5, Math.max(0, Math.round(c.pts))) } : { pct: given ? 0 : equal, pts: 3 });
  }
  return out;
}

async function recordContributions(em: Em, groupSubmissionId: number, given: Contribution[]): Promise<void> {
  for (const c of given) {
    await db(em)
      .updateTable('tasks')
      .set({ contribution_pct: Math.max(0, Math.round(c.pct)), contribution_pts: Math.min(5, Math.max(0, Math.round(c.pts))) })
      .where('group_submission_id', '=', groupSubmissionId)
      .where('project_id', '=', c.project_id)
      .execute();
  }
}
