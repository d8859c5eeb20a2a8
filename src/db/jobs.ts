import type { Em } from './orm.ts';
import { batches } from './batches.ts';
import { withRequestId } from '../lib/request-scope.ts';

export interface JobOptions {
  /** Replaces a not-yet-started job with the same key instead of queueing a second one. */
  jobKey?: string;
  maxAttempts?: number;
}

/**
 * Every background job by name, with its payload. Procedures enqueue only these, and the
 * worker's task list (workers/index.ts) must handle each one: the compiler checks both sides.
 */
export interface JobPayloads {
  pull_overseer_image: { imageId: number };
  delete_expired_tokens: Record<string, never>;
  /** Builds the PDF of an uploaded submission (the task's history entry that holds the files). */
  accept_submission: { taskId: number; submissionId: number };
  // ---- portfolios ----
  /** Compiles a project's portfolio PDF (queued by PUT compile_portfolio=true and the daily auto-generation). */
  compile_portfolio: { projectId: number };
  /** The daily auto-generation (cron): flags and queues the compile of every eligible project. */
  portfolio_autogen: Record<string, never>;
  // ---- automated assessment ----
  /** Runs one overseer_assessments record's build and run steps in containers. */
  run_overseer_assessment: { assessmentId: number };
  // ---- document similarity (simcheck) ----
  /** Sends a converted submission's checked documents to the similarity service. */
  simcheck_submit: { taskId: number; submissionId: number };
  /** Runs the next step of one recorded similarity-service action (an admin's retry, an upload). */
  simcheck_action: { actionId: number };
  /** Cron: moves on every action waiting to retry for 30 minutes (missed webhooks, outages). */
  simcheck_poll: Record<string, never>;
  // ---- code similarity ----
  /** Compares the latest code of every student's task of a definition and records the similar pairs. */
  code_similarity: { taskDefinitionId: number };
  /** Daily: queues code_similarity for definitions past their target date with code handed in since. */
  code_similarity_due: { _cron?: { ts: string; backfilled?: boolean } };
  // ---- e-mail ----
  /** One notification e-mail (queued by src/mail/queue.ts); its content is read when it is sent. */
  send_email: import('../mail/payload.ts').MailPayload;
  /** The weekly summaries (cron, Mondays): queues one send_email per recipient for the week ending `weekEnd`. */
  weekly_summaries: { weekEnd?: string };
  // ---- LMS (LTI) ----
  /** Posts a task's current score to one line item of an LMS gradebook (src/operations/lti/score-passback.ts). */
  lti_score_passback: { passbackId: number };
  /** Daily (cron): queues lti_roster_sync for every unit linked to an LMS course that offers a roster. */
  lti_roster_sync_due: Record<string, never>;
  /** Syncs one unit's students and staff from its LMS course(s) (NRPS). */
  lti_roster_sync: { unitId: number };
  // ---- teaching rules ----
  /** Daily (cron): warns about, then sends back, tasks left in discuss (src/operations/tasks/discuss-timeouts.ts). */
  discuss_timeouts: Record<string, never>;
}
export type JobName = keyof JobPayloads;

/**
 * Jobs that are queued already but whose worker arrives with a later part of the service. They
 * wait in the queue, untouched, until a worker that knows them runs. One name per line.
 */
export type PendingJobName = never;

/** One job of a list queued by `addMany`. */
export interface JobOf<K extends JobName> extends JobOptions {
  payload: JobPayloads[K];
}

export interface JobQueue {
  add<K extends JobName>(task: K, payload: JobPayloads[K], options?: JobOptions): Promise<void>;
  /**
   * Many jobs of one task, as `add` queues each (same keys, attempts, queue, run_at and
   * priority), in one statement per ADD_JOBS_BATCH jobs rather than one per job.
   */
  addMany<K extends JobName>(task: K, jobs: readonly JobOf<K>[]): Promise<void>;
}

/** The default of `add` too: graphile-worker's own (25) retries a broken job for days. */
const MAX_ATTEMPTS = 5;

/**
 * Jobs per add_jobs statement. Each statement carries one parameter (the list as JSON), so this
 * bounds the statement's size and the memory of building it, not PostgreSQL's parameter limit.
 */
export const ADD_JOBS_BATCH = 1000;

/**
 * Enqueues through the entity manager's own connection, so a job added inside a transaction
 * is committed or rolled back with the change that needed it. The payload carries the id of the
 * request (or job) that queued it, so the job's log lines name it (src/lib/request-scope.ts).
 */
export function jobQueue(em: Em): JobQueue {
  return {
    async add(task, payload, options = {}) {
      await em.execute('select graphile_worker.add_job(?, ?::json, job_key => ?, max_attempts => ?)', [
        task,
        JSON.stringify(withRequestId(payload)),
        options.jobKey ?? null,
        options.maxAttempts ?? MAX_ATTEMPTS,
      ]);
    },
    async addMany(task, jobs) {
      // add_jobs fails on two specs with one key in one call; as successive adds would, the last
      // of a key wins (each keeps its place in the list).
      const seen = new Set<string>();
      const kept = [...jobs].reverse().filter((job) => job.jobKey === undefined || (!seen.has(job.jobKey) && seen.add(job.jobKey)));
      // Queue, run_at and priority left null: the defaults add_job gives (no queue, now, 0).
      const specs = kept.reverse().map((job) => ({
        identifier: task,
        payload: withRequestId(job.payload),
        job_key: job.jobKey ?? null,
        max_attempts: job.maxAttempts ?? MAX_ATTEMPTS,
      }));
      for (const batch of batches(specs, ADD_JOBS_BATCH)) {
        await em.execute('select count(*) from graphile_worker.add_jobs(array(select json_populate_recordset(null::graphile_worker.job_spec, ?::json)))', [
          JSON.stringify(batch),
        ]);
      }
    },
  };
}
