// What a unit's convenor sees of the grade passback to the LMS: per task and line item, its state,
// the last error and when it was queued and sent; and asking for passbacks again (after a platform
// was fixed, or for columns linked after the work was marked).
import { sql } from 'kysely';
import { db, isoTimestamp } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import type { LtiPassbackState } from '../../../../domain/vocabulary.ts';
import type { Config } from '../../../../config.ts';
import { badRequest } from '../../../../lib/errors.ts';
import { ltiSecret } from '../../configured.ts';
import { queueScorePassbacks } from '../../score-passback.ts';

export interface PassbackFilter {
  state?: LtiPassbackState;
  task_definition_id?: number;
}

export interface PassbackOut {
  id: number;
  task_id: number;
  project_id: number;
  student_id: number;
  username: string;
  student_name: string;
  task_definition_id: number;
  abbreviation: string;
  lineitem_url: string;
  state: LtiPassbackState;
  error: string | null;
  attempts: number;
  /** The score last sent (AGS fields), null before any. */
  score: Record<string, unknown> | null;
  changed_at: string;
  updated_at: string;
  sent_at: string | null;
}

/** The passbacks of the unit's tasks, by task definition, student and line item: one statement. */
export async function listPassbacks(em: Em, config: Pick<Config, 'lti'>, unitId: number, filter: PassbackFilter): Promise<PassbackOut[]> {
  ltiSecret(config);
  const state = filter.state === undefined ? sql`true` : sql`p.state = ${filter.state}`;
  const definition = filter.task_definition_id === undefined ? sql`true` : sql`t.task_definition_id = ${filter.task_definition_id}`;
  const result = await sql<PassbackOut>`
    select p.id, p.task_id, t.project_id, u.id as student_id, u.username, trim(u.first_name || ' ' || u.last_name) as student_name,
           d.id as task_definition_id, d.abbreviation, p.lineitem_url, p.state, p.error, p.attempts, p.score,
           p.changed_at::text, p.updated_at::text, p.sent_at::text
      from lti_score_passbacks p
      join tasks t on t.id = p.task_id
      join projects pr on pr.id = t.project_id
      join users u on u.id = pr.user_id
      join task_definitions d on d.id = t.task_definition_id
     where pr.unit_id = ${unitId} and ${state} and ${definition}
     order by d.target_date, d.abbreviation, u.username, p.id`.execute(db(em));
  return result.rows.map((row) => ({
    ...row,
    changed_at: isoTimestamp(row.changed_at),
    updated_at: isoTimestamp(row.updated_at),
    sent_at: isoTimestamp(row.sent_at),
  }));
}

/**
 * Queues the passback again of the unit's tasks (of one definition, or all), or only of those in
 * `state` (e.g. the failed): each posts the task's current score. Returns how many were queued.
 */
export async function requeuePassbacks(em: Em, config: Pick<Config, 'lti'>, unitId: number, filter: PassbackFilter, now: Date): Promise<{ queued: number }> {
  ltiSecret(config);
  let definitions = db(em).selectFrom('task_definitions').select('id').where('unit_id', '=', unitId);
  if (filter.task_definition_id !== undefined) definitions = definitions.where('id', '=', filter.task_definition_id);
  const ids = (await definitions.orderBy('id').execute()).map((d) => d.id);
  if (filter.task_definition_id !== undefined && ids.length === 0) throw badRequest(`Task definition ${filter.task_definition_id} is not in this unit.`);
  let queued = 0;
  for (const taskDefinitionId of ids) {
    queued += await queueScorePassbacks(em, { taskDefinitionId, onlyStates: filter.state === undefined ? undefined : [filter.state] }, now);
  }
  return { queued };
}
