// Grade passback (LTI Assignment and Grade Services, docs/lti.md "Grade passback (AGS)"). A task
// change queues one `lti_score_passback` job per line item of its definition, in the change's own
// transaction; the job reads the task as it is when it runs and posts that score, so a later change
// only has to queue again (the job key makes the two one job while neither has run).
import { sql } from 'kysely';
import { type ILtiPlatform, LtiPlatform } from '../../../schema/index.ts';
import { LtiPlatformError, ltiFetch } from '../../adapters/lti-http.ts';
import type { Config } from '../../config.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { type PassbackScore, scoreFor, scoresUrl } from '../../domain/lti-scores.ts';
import type { LtiPassbackState, TaskStatus } from '../../domain/vocabulary.ts';
import type { Clock } from '../../lib/clock.ts';
import type { JobName } from '../../db/jobs.ts';
import { withRequestId } from '../../lib/request-scope.ts';
import { forgetServiceToken, LTI_SCOPES, serviceToken } from './service-token.ts';

export const SCORE_PASSBACK_JOB: JobName = 'lti_score_passback';
/**
 * graphile-worker retries a failed job after exp(attempt) seconds (capped at attempt 10): ten
 * attempts span about three and a half hours, long enough for a platform's outage or maintenance.
 */
export const SCORE_PASSBACK_ATTEMPTS = 10;

export const SCORE_MEDIA_TYPE = 'application/vnd.ims.lis.v1.score+json';

/** What to queue: tasks of one definition (all of its tasks beyond not started when `taskIds` is absent). */
export interface PassbackTarget {
  taskDefinitionId: number;
  taskIds?: number[];
  /** Only rows in these states are queued again (a convenor's "retry the failed"); absent: any. */
  onlyStates?: LtiPassbackState[];
}

/**
 * Queues the passback of these tasks to every line item their definition has in a course linked to
 * their unit whose launch granted the score scope: in one statement, so a unit without LTI pays one
 * indexed look-up that finds nothing. The row per (task, line item) goes back to pending with the
 * change's time, and the job (keyed by the row) replaces one that has not started. Returns how many.
 */
export async function queueScorePassbacks(em: Em, target: PassbackTarget, now: Date): Promise<number> {
  const at = now.toISOString();
  const tasks =
    target.taskIds === undefined
      ? sql`t.task_definition_id = ${target.taskDefinitionId} and t.status <> 'not_started'`
      : sql`t.id = any(${target.taskIds}::int[])`;
  const states = target.onlyStates === undefined ? sql`true` : sql`p.state = any(${target.onlyStates}::text[])`;
  const result = await sql<{ queued: string }>`
    with line_items as (
      select rl.context_id, rl.lineitem_url from lti_resource_links rl
       where rl.task_definition_id = ${target.taskDefinitionId} and rl.lineitem_url is not null
      union
      select li.context_id, li.lineitem_url from lti_line_items li
       where li.task_definition_id = ${target.taskDefinitionId}
    ), targets as (
      -- One row per (task, line item) even if two courses named the same URL: an upsert may touch a row once.
      select distinct on (t.id, md5(li.lineitem_url)) t.id as task_id, li.context_id, li.lineitem_url
        from line_items li
        join lti_contexts c on c.id = li.context_id and ${LTI_SCOPES.score} = any(c.ags_scopes)
        join tasks t on t.task_definition_id = ${target.taskDefinitionId} and ${tasks}
        join projects pr on pr.id = t.project_id and pr.unit_id = c.unit_id
        left join lti_score_passbacks p on p.task_id = t.id and md5(p.lineitem_url) = md5(li.lineitem_url)
       where ${states}
    ), queued as (
      insert into lti_score_passbacks as p (task_id, context_id, lineitem_url, state, version, changed_at, attempts, created_at, updated_at)
      select task_id, context_id, lineitem_url, 'pending', 1, ${at}, 0, ${at}, ${at} from targets
      on conflict (task_id, md5(lineitem_url)) do update
         set state = 'pending', context_id = excluded.context_id, version = p.version + 1, changed_at = excluded.changed_at,
             attempts = 0, error = null, updated_at = excluded.updated_at
      returning p.id
    )
    select count(graphile_worker.add_job(${SCORE_PASSBACK_JOB}, (${JSON.stringify(withRequestId({}))}::jsonb || jsonb_build_object('passbackId', id))::json,
             job_key => ${`${SCORE_PASSBACK_JOB}:`} || id, max_attempts => ${SCORE_PASSBACK_ATTEMPTS})) as queued
      from queued`.execute(db(em));
  return Number(result.rows[0]?.queued ?? 0);
}

/** Everything one passback needs, read in one statement. */
interface PassbackRow {
  id: number;
  version: number;
  state: LtiPassbackState;
  lineitem_url: string;
  changed_at: string;
  sent_at: string | null;
  status: TaskStatus;
  grade: number | null;
  quality_pts: number;
  is_graded: boolean;
  max_quality_pts: number;
  linked: boolean;
  platform_id: number;
  sub: string | null;
}

async function loadPassback(em: Em, id: number): Promise<PassbackRow | undefined> {
  const result = await sql<PassbackRow>`
    select p.id, p.version, p.state, p.lineitem_url, p.changed_at::text, p.sent_at::text,
           t.status, t.grade, t.quality_pts, d.is_graded, d.max_quality_pts,
           (c.unit_id is not distinct from pr.unit_id) as linked, c.platform_id,
           (select i.sub from lti_identities i where i.user_id = pr.user_id and i.issuer = pl.issuer order by i.id desc limit 1) as sub
      from lti_score_passbacks p
      join tasks t on t.id = p.task_id
      join projects pr on pr.id = t.project_id
      join task_definitions d on d.id = t.task_definition_id
      join lti_contexts c on c.id = p.context_id
      join lti_platforms pl on pl.id = c.platform_id
     where p.id = ${id}`.execute(db(em));
  return result.rows[0];
}

/** Records the outcome, unless a later change queued the row again meanwhile (its own job reports). */
async function record(
  em: Em,
  row: PassbackRow,
  fields: { state: LtiPassbackState; error?: string | null; attempts?: number; score?: unknown; sentAt?: Date },
  now: Date,
): Promise<boolean> {
  const updated = await db(em)
    .updateTable('lti_score_passbacks')
    .set({
      state: fields.state,
      error: fields.error ?? null,
      updated_at: now.toISOString(),
      ...(fields.attempts === undefined ? {} : { attempts: fields.attempts }),
      ...(fields.score === undefined ? {} : { score: JSON.stringify(fields.score) as never }),
      ...(fields.sentAt === undefined ? {} : { sent_at: fields.sentAt.toISOString() }),
    })
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** A 4xx other than 401 (token refused: ask again), 408 and 429 (try later) will not go better by retrying. */
export function isPermanent(error: LtiPlatformError): boolean {
  return error.status >= 400 && error.status < 500 && ![401, 408, 429].includes(error.status);
}

export interface PassbackAttempt {
  /** This run's attempt (1 for the first) and the job's maximum. */
  attempt: number;
  maxAttempts: number;
}

export type PassbackOutcome =
  | { kind: 'gone' | 'superseded' }
  | { kind: 'skipped'; reason: string }
  | { kind: 'sent'; score: Record<string, unknown> }
  /** `retry`: the job should fail so that graphile-worker tries again later. */
  | { kind: 'failed'; error: string; retry: boolean };

/**
 * Posts the task's current score to the line item's scores endpoint (the worker's job). No identity
 * for the student at the platform, or nothing to say (not started and never sent), is `skipped`.
 */
export async function sendScorePassback(
  em: Em,
  services: { config: Pick<Config, 'lti'>; clock: Clock },
  passbackId: number,
  attempt: PassbackAttempt,
): Promise<PassbackOutcome> {
  const row = await loadPassback(em, passbackId);
  if (!row) return { kind: 'gone' };
  const now = services.clock.now();
  const skip = async (reason: string): Promise<PassbackOutcome> =>
    (await record(em, row, { state: 'skipped', error: reason }, now)) ? { kind: 'skipped', reason } : { kind: 'superseded' };
  if (!row.linked) return skip('The course is no longer linked to this unit.');
  if (row.sub === null) return skip('The student has no identity at this platform yet (they have not launched the tool from the LMS).');
  const score = scoreFor(
    { status: row.status, grade: row.grade, qualityPts: row.quality_pts },
    { isGraded: row.is_graded, maxQualityPts: row.max_quality_pts },
  );
  if (row.status === 'not_started' && row.sent_at === null) return skip('Nothing to send: the task is not started.');
  const body = scoreBody(row.sub, score, new Date(row.changed_at));

  let url: string;
  try {
    url = scoresUrl(row.lineitem_url);
  } catch {
    const error = `The line item URL is not a URL: ${row.lineitem_url.slice(0, 200)}`;
    await record(em, row, { state: 'failed', error, attempts: attempt.attempt }, now);
    return { kind: 'failed', error, retry: false };
  }
  const platform = await em.findOneOrFail(LtiPlatform, { id: row.platform_id });
  const scopes = [LTI_SCOPES.score];
  try {
    const token = await serviceToken(em, services.config, services.clock, platform, scopes);
    await ltiFetch(url, { method: 'POST', bearer: token, body: { json: body, contentType: SCORE_MEDIA_TYPE } });
  } catch (error) {
    // A 2xx whose body is not JSON (some platforms answer text) is still a success.
    const accepted = error instanceof LtiPlatformError && error.status >= 200 && error.status < 300;
    if (!accepted) return failed(em, row, error, platform, scopes, attempt, now);
  }
  const recorded = await record(em, row, { state: 'sent', attempts: attempt.attempt, score: body, sentAt: now }, now);
  return recorded ? { kind: 'sent', score: body } : { kind: 'superseded' };
}

/** The AGS score: the grade's fields only when there is a final grade. */
export function scoreBody(userId: string, score: PassbackScore, changedAt: Date): Record<string, unknown> {
  return {
    userId,
    ...(score.scoreGiven === undefined ? {} : { scoreGiven: score.scoreGiven, scoreMaximum: score.scoreMaximum }),
    activityProgress: score.activityProgress,
    gradingProgress: score.gradingProgress,
    timestamp: changedAt.toISOString(),
  };
}

async function failed(
  em: Em,
  row: PassbackRow,
  error: unknown,
  platform: ILtiPlatform,
  scopes: string[],
  attempt: PassbackAttempt,
  now: Date,
): Promise<PassbackOutcome> {
  // Anything but the platform's answer (LTI switched off without LTI_KEY_SECRET, the database) is
  // tried again like an outage: an operator may fix it within the retries.
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof LtiPlatformError)) {
    const retry = attempt.attempt < attempt.maxAttempts;
    const recorded = await record(em, row, { state: retry ? 'retrying' : 'failed', error: message, attempts: attempt.attempt }, now);
    return { kind: 'failed', error: message, retry: retry && recorded };
  }
  if (error.status === 401) forgetServiceToken(platform, scopes);
  const retry = !isPermanent(error) && attempt.attempt < attempt.maxAttempts;
  const recorded = await record(em, row, { state: retry ? 'retrying' : 'failed', error: error.message, attempts: attempt.attempt }, now);
  // Superseded: the later change's own job sends the score; this one need not come back.
  return { kind: 'failed', error: error.message, retry: retry && recorded };
}
