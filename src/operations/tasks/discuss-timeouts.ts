// The daily discuss-timeout run (docs/discuss-timeouts.md; workers/tasks/discuss-timeouts.ts):
// tasks left in discuss in units that turned timeouts on are warned after the warning days and sent
// back to fix and resubmit after the expiry days, counted in teaching days. Each notice is sent once
// per stay in discuss: changeTask clears the notified_* columns when a task enters discuss again.
//
// Idempotent and crash-safe: each task's notice (comment, mail job, notified_* column) commits in
// one transaction, and every task is locked and its notice worked out again under the lock
// (`for update skip locked`), so a second run at the same time skips what the first holds and a
// run after an interrupted one finds the committed notices already sent.
import { sql } from 'kysely';
import { batches } from '../../db/batches.ts';
import { db, timestamp } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { toDay } from '../../domain/dates.ts';
import {
  dayAfterTeachingDays,
  discussExpiryComment,
  discussWarningComment,
  dueNotice,
  teachingDaysBetween,
  type DiscussNotice,
  type DiscussTimeoutSettings,
} from '../../domain/discuss-timeouts.ts';
import type { PeriodCalendar } from '../../domain/weeks.ts';
import { AppError } from '../../lib/errors.ts';
import type { MailPayload } from '../../mail/payload.ts';
import { queueMails } from '../../mail/queue.ts';
import { ROLE } from '../../policy/index.ts';
import { changeTask } from './change-task.ts';
import { insertComments, type NewComment } from './comments.ts';
import { tutorKey, tutorsFor } from './people.ts';

/** Tasks per transaction of warnings, and per lookup of their tutors. */
export const DISCUSS_TIMEOUT_CHUNK = 100;

export interface DiscussTimeoutRun {
  warned: number;
  expired: number;
  /** Due, but locked by someone else or no longer due under the lock, or with nobody to act as: the next run sees them again. */
  skipped: number;
  /** Expiries changeTask refused (a group task whose student has no group): named in `problems`. */
  problems: string[];
}

interface Due {
  taskId: number;
  projectId: number;
  taskDefinitionId: number;
  studentId: number;
  groupSetId: number | null;
  notice: DiscussNotice;
  settings: DiscussTimeoutSettings;
  calendar: PeriodCalendar | null;
}

/** Runs the timeouts as of `now` (UTC days). `chunkSize` only for tests. */
export async function runDiscussTimeouts(em: Em, now: Date, options: { chunkSize?: number } = {}): Promise<DiscussTimeoutRun> {
  const today = toDay(now);
  const run: DiscussTimeoutRun = { warned: 0, expired: 0, skipped: 0, problems: [] };
  const due = await dueTasks(em, today);
  // Tasks sent back already in this run: a group's members go back with the first of them.
  const sentBack = new Set<number>();
  for (const chunk of batches(due, options.chunkSize ?? DISCUSS_TIMEOUT_CHUNK)) {
    const tutors = await tutorsFor(
      em,
      chunk.map((d) => ({ projectId: d.projectId, taskDefinitionId: d.taskDefinitionId })),
    );
    const actorOf = (d: Due) => tutors.get(tutorKey(d.projectId, d.taskDefinitionId)) ?? null;
    const warnings = chunk.filter((d) => d.notice === 'warning');
    if (warnings.length > 0) {
      const sent = await em.transactional((tx) => sendWarnings(tx as Em, warnings, actorOf, now));
      run.warned += sent;
      run.skipped += warnings.length - sent;
    }
    for (const d of chunk.filter((c) => c.notice === 'expiry')) {
      if (sentBack.has(d.taskId)) continue;
      try {
        const ids = await em.transactional((tx) => expire(tx as Em, d, actorOf(d), now));
        for (const id of ids) sentBack.add(id);
        if (ids.length > 0) run.expired += ids.length;
        else run.skipped += 1;
      } catch (error) {
        // A refusal of the rules (not a failure of the database) would come back every day; it is
        // reported and the other tasks go on. Anything else stops the run, and the job is retried.
        if (!(error instanceof AppError)) throw error;
        run.problems.push(`task ${d.taskId}: ${error.message}`);
      }
    }
  }
  return run;
}

/**
 * The tasks due a notice today, in two statements whatever their number: the tasks in discuss of
 * the units with timeouts on, cut down in SQL to those in discuss for at least the next threshold's
 * calendar days (teaching days are never more), then their periods' breaks.
 */
async function dueTasks(em: Em, today: string): Promise<Due[]> {
  const { rows } = await sql<{
    id: number;
    project_id: number;
    task_definition_id: number;
    student_id: number;
    group_set_id: number | null;
    moved_to_discuss_at: string;
    warned: boolean;
    warning_days: number;
    expire_days: number;
    teaching_period_id: number | null;
    period_start: string | null;
  }>`
    select t.id, t.project_id, t.task_definition_id, p.user_id as student_id, d.group_set_id, t.moved_to_discuss_at,
           t.notified_discuss_warning_at is not null as warned,
           u.discuss_timeout_warning_days as warning_days, u.discuss_timeout_expire_days as expire_days,
           u.teaching_period_id, to_char(tp.start_date at time zone 'UTC', 'YYYY-MM-DD') as period_start
      from tasks t
      join projects p on p.id = t.project_id
      join units u on u.id = p.unit_id
      join task_definitions d on d.id = t.task_definition_id
      left join teaching_periods tp on tp.id = u.teaching_period_id
     where t.status = 'discuss' and t.moved_to_discuss_at is not null and t.notified_discuss_expiry_at is null
       and u.discuss_timeout_enabled and u.active and p.enrolled
       and (t.moved_to_discuss_at at time zone 'UTC')::date <= ${today}::date -
           (case when t.notified_discuss_warning_at is null then u.discuss_timeout_warning_days else u.discuss_timeout_expire_days end)
     order by t.id`.execute(db(em));
  const periodIds = [...new Set(rows.flatMap((r) => (r.teaching_period_id === null ? [] : [r.teaching_period_id])))];
  const breaks =
    periodIds.length === 0
      ? []
      : await db(em)
          .selectFrom('breaks')
          .select(['teaching_period_id', 'start_date', 'number_of_weeks'])
          .where('teaching_period_id', 'in', periodIds)
          .execute();
  const calendars = new Map<number, PeriodCalendar>();
  for (const r of rows) {
    if (r.teaching_period_id === null || r.period_start === null || calendars.has(r.teaching_period_id)) continue;
    const own = breaks.filter((b) => b.teaching_period_id === r.teaching_period_id);
    calendars.set(r.teaching_period_id, { startDate: r.period_start, breaks: own.map((b) => ({ startDate: b.start_date, numberOfWeeks: b.number_of_weeks })) });
  }
  const due: Due[] = [];
  for (const r of rows) {
    const settings = { warningDays: r.warning_days, expireDays: r.expire_days };
    const calendar = r.teaching_period_id === null ? null : (calendars.get(r.teaching_period_id) ?? null);
    const notice = dueNotice({ movedToDiscussAt: timestamp(r.moved_to_discuss_at), warned: r.warned, expired: false }, today, settings, calendar);
    if (notice === null) continue;
    due.push({
      taskId: r.id,
      projectId: r.project_id,
      taskDefinitionId: r.task_definition_id,
      studentId: r.student_id,
      groupSetId: r.group_set_id,
      notice,
      settings,
      calendar,
    });
  }
  return due;
}

/**
 * Locks the tasks that are free (`skip locked`) and returns those still due `notice` under the lock,
 * with the day their stay began. One statement.
 */
async function lockStillDue(em: Em, tasks: Due[], notice: DiscussNotice, today: string): Promise<Map<number, string>> {
  const { rows } = await sql<{ id: number; moved_to_discuss_at: string; warned: boolean }>`
    select id, moved_to_discuss_at, notified_discuss_warning_at is not null as warned
      from tasks
     where id in (${sql.join(tasks.map((t) => t.taskId))})
       and status = 'discuss' and moved_to_discuss_at is not null and notified_discuss_expiry_at is null
     order by id
       for update skip locked`.execute(db(em));
  const byId = new Map(tasks.map((t) => [t.taskId, t]));
  const still = new Map<number, string>();
  for (const r of rows) {
    const t = byId.get(r.id)!;
    const moved = timestamp(r.moved_to_discuss_at);
    if (dueNotice({ movedToDiscussAt: moved, warned: r.warned, expired: false }, today, t.settings, t.calendar) === notice) still.set(r.id, toDay(moved));
  }
  return still;
}

/** One transaction for a chunk of warnings: a comment, a mail and the mark for each, in a fixed number of statements. */
async function sendWarnings(em: Em, tasks: Due[], actorOf: (d: Due) => number | null, now: Date): Promise<number> {
  const today = toDay(now);
  const still = await lockStillDue(em, tasks, 'warning', today);
  const comments: NewComment[] = [];
  const mails: MailPayload[] = [];
  const ids: number[] = [];
  for (const t of tasks) {
    const movedOn = still.get(t.taskId);
    const actor = actorOf(t);
    if (movedOn === undefined || actor === null) continue;
    const expiresOn = dayAfterTeachingDays(t.calendar, movedOn, t.settings.expireDays);
    const days = teachingDaysBetween(t.calendar, movedOn, today);
    comments.push({ taskId: t.taskId, authorId: actor, recipientId: t.studentId, kind: 'text', comment: discussWarningComment({ days, expiresOn }) });
    mails.push({ kind: 'discuss_timeout_warning', taskId: t.taskId, expiresOn });
    ids.push(t.taskId);
  }
  if (ids.length === 0) return 0;
  await insertComments(em, comments, now);
  await db(em).updateTable('tasks').set({ notified_discuss_warning_at: now.toISOString() }).where('id', 'in', ids).execute();
  await queueMails(em, mails);
  return ids.length;
}

/**
 * One transaction for one expiry: the task goes to fix_and_resubmit through changeTask as the
 * student's tutor (automated: the rules' staff move, with the explaining comment, which also meets
 * a unit's required feedback comment), then its mail and mark. A group task's group row is locked
 * first, in changeTask's own order (group, then tasks), so the run never waits on a person's change
 * while holding what that change needs.
 */
async function expire(em: Em, t: Due, actor: number | null, now: Date): Promise<number[]> {
  if (actor === null) return [];
  if (t.groupSetId !== null) {
    // No group: changeTask refuses the change, which the run reports.
    const group = await groupOf(em, t);
    if (group !== null && (await sql`select id from groups where id = ${group} for update skip locked`.execute(db(em))).rows.length === 0) return [];
  }
  const today = toDay(now);
  const movedOn = (await lockStillDue(em, [t], 'expiry', today)).get(t.taskId);
  if (movedOn === undefined) return [];
  const days = teachingDaysBetween(t.calendar, movedOn, today);
  const comment = discussExpiryComment({ days });
  // A group's members in discuss follow the submission back (changeTask moves them): they are told too.
  const fellows =
    t.groupSetId === null
      ? []
      : (
          await sql<{ id: number; student_id: number }>`
            select m.id, p.user_id as student_id from tasks m join projects p on p.id = m.project_id
             where m.group_submission_id = (select group_submission_id from tasks where id = ${t.taskId})
               and m.id <> ${t.taskId} and m.status = 'discuss' and m.notified_discuss_expiry_at is null`.execute(db(em))
        ).rows;
  const changed = await changeTask(
    em,
    t.taskId,
    { actor: { userId: actor, role: ROLE.tutor }, change: { kind: 'automated', target: 'fix_and_resubmit', onlyFrom: 'discuss' }, comment },
    now,
  );
  const followed = fellows.filter((f) => changed.taskIds.includes(f.id));
  const ids = [t.taskId, ...followed.map((f) => f.id)];
  await insertComments(
    em,
    followed.map((f) => ({ taskId: f.id, authorId: actor, recipientId: f.student_id, kind: 'text', comment })),
    now,
  );
  await db(em).updateTable('tasks').set({ notified_discuss_expiry_at: now.toISOString() }).where('id', 'in', ids).execute();
  await queueMails(
    em,
    ids.map((taskId) => ({ kind: 'discuss_timeout_expired', taskId })),
  );
  return ids;
}

/** The student's group in the task's group set (null when in none: changeTask then refuses the expiry). */
async function groupOf(em: Em, t: Due): Promise<number | null> {
  const row = await db(em)
    .selectFrom('group_memberships as gm')
    .innerJoin('groups as g', 'g.id', 'gm.group_id')
    .select('g.id')
    .where('gm.project_id', '=', t.projectId)
    .where('gm.active', '=', true)
    .where('g.group_set_id', '=', t.groupSetId!)
    .orderBy('g.id')
    .executeTakeFirst();
  return row?.id ?? null;
}
