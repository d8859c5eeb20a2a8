import pg from 'pg';
import { EventEmitter } from 'node:events';
import { run, type Task, type TaskList, type WorkerEvents } from 'graphile-worker';
import type { JobName, PendingJobName } from '../src/db/jobs.ts';
import { workerLogger } from '../src/lib/worker-logger.ts';
import type { WorkerServices } from './services.ts';
import { compilePortfolio } from './tasks/compile-portfolio.ts';
import { acceptSubmission } from './tasks/accept-submission.ts';
import { codeSimilarityDueTask } from './tasks/code-similarity-due.ts';
import { codeSimilarityTask } from './tasks/code-similarity.ts';
import { deleteExpiredTokensTask } from './tasks/delete-expired-tokens.ts';
import { discussTimeoutsTask } from './tasks/discuss-timeouts.ts';
import { ltiRosterSyncDueTask, ltiRosterSyncTask } from './tasks/lti-roster-sync.ts';
import { pullOverseerImage } from './tasks/pull-overseer-image.ts';
import { simcheckAction } from './tasks/simcheck-action.ts';
import { simcheckPoll } from './tasks/simcheck-poll.ts';
import { simcheckSubmit } from './tasks/simcheck-submit.ts';
import { sendEmailTask } from './tasks/send-email.ts';
import { weeklySummariesTask } from './tasks/weekly-summaries.ts';
import { runOverseerAssessment } from './tasks/run-overseer-assessment.ts';
import { portfolioAutogen } from './tasks/portfolio-autogen.ts';
import { ltiScorePassback } from './tasks/lti-score-passback.ts';
import { startLiveness, trackJobs } from './liveness.ts';
import { countHeldJobs, releaseJobsOf } from '../src/db/job-locks.ts';
import { observeJobs } from './metrics.ts';
import { withJobLog } from './job-log.ts';
import type { Logger } from '../src/lib/logger.ts';

/** Every job the service runs, by the name procedures enqueue it under; each logs one line per run. */
export function taskList(services: WorkerServices): TaskList & Record<Exclude<JobName, PendingJobName>, Task> {
  const tasks: Record<Exclude<JobName, PendingJobName>, Task> = {
    pull_overseer_image: pullOverseerImage(services),
    run_overseer_assessment: runOverseerAssessment(services),
    delete_expired_tokens: deleteExpiredTokensTask(services),
    simcheck_submit: simcheckSubmit(services),
    simcheck_action: simcheckAction(services),
    simcheck_poll: simcheckPoll(services),
    code_similarity: codeSimilarityTask(services),
    code_similarity_due: codeSimilarityDueTask(services),
    send_email: sendEmailTask(services),
    weekly_summaries: weeklySummariesTask(services),
    accept_submission: acceptSubmission(services),
    compile_portfolio: compilePortfolio(services),
    portfolio_autogen: portfolioAutogen(services),
    lti_score_passback: ltiScorePassback(services),
    lti_roster_sync_due: ltiRosterSyncDueTask(services),
    lti_roster_sync: ltiRosterSyncTask(services),
    discuss_timeouts: discussTimeoutsTask(services),
  };
  const logger = services.logger.child({ component: 'worker' });
  for (const name of Object.keys(tasks) as (keyof typeof tasks)[]) tasks[name] = withJobLog(tasks[name], logger);
  return tasks;
}

/** Scheduled jobs, in graphile-worker's crontab format: one line each. */
export const CRONTAB = [
  '0 * * * * delete_expired_tokens',
  // Every 30 minutes: similarity-service actions waiting to retry (missed webhooks, outages), as the original's TiiCheckProgressJob.
  '*/30 * * * * simcheck_poll',
  // Daily at 05:00 (UTC), making up to three missed days; each run looks back one day (code-similarity-due.ts).
  '0 5 * * * code_similarity_due ?fill=3d',
  // Mondays 07:00 UTC; the job key merges a second enqueue for the same run while the first waits.
  '0 7 * * 1 weekly_summaries ?jobKey=weekly_summaries',
  // Daily at 08:00 UTC (graphile-worker's crontab is in UTC), as the original's portfolio_autogen_check.
  '0 8 * * * portfolio_autogen',
  // Daily at 04:00 UTC, before a teaching day in most time zones: each unit's roster from its LMS course(s).
  '0 4 * * * lti_roster_sync_due ?jobKey=lti_roster_sync_due',
  // Daily at 06:00 UTC: tasks left in discuss (docs/discuss-timeouts.md). Its own queue runs one at a time, so two runs never overlap.
  '0 6 * * * discuss_timeouts ?queue=discuss_timeouts&jobKey=discuss_timeouts',
].join('\n');

/**
 * The job runner's own connection pool. Its error handlers are ours and stay attached until the
 * pool has ended: graphile-worker detaches the ones it installs while its connections may still be
 * closing, and a dropped connection then surfaced as an unhandled 'error' that killed the process.
 */
export function createJobPool(databaseUrl: string, max: number, logger: Logger): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max, connectionTimeoutMillis: 5_000 });
  const report = (error: Error) => logger.warn({ component: 'worker' }, `database connection lost: ${error.message}`);
  pool.on('error', report);
  pool.on('connect', (client) => client.on('error', report));
  return pool;
}

/**
 * Jobs still locked by a worker that was killed would wait for the heartbeat sweep
 * (workers/liveness.ts). Only a process whose database nobody else uses (the embedded one) knows
 * at once that every lock and heartbeat row is left over from a dead run, and it clears them at
 * start (releaseAbandonedJobs), so a restart takes the job again immediately.
 */
export { releaseAbandonedJobs } from '../src/db/job-locks.ts';

/** A running job worker; `stop` is the worker's part of the ordered shutdown. */
export interface JobWorker {
  /** Lets running jobs finish for up to `graceMs`; jobs still running then are handed back to the queue. */
  stop(graceMs: number): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * graphile-worker marks a finished job complete (or failed) without awaiting the statement, so a
 * stop that closed the pool at once could lose it and leave the job locked for hours. Wait for
 * those statements, then free whatever this worker still holds so another worker takes it at once.
 */
async function settleJobs(pool: pg.Pool, poolIds: string[]): Promise<void> {
  for (let waited = 0; waited < 3_000; waited += 50) {
    if ((await countHeldJobs(pool, poolIds)) === 0) return;
    await sleep(50);
  }
  await releaseJobsOf(pool, poolIds);
}

export async function startWorker(pgPool: pg.Pool, services: WorkerServices): Promise<JobWorker> {
  const log = services.logger.child({ component: 'worker' });
  const events: WorkerEvents = new EventEmitter();
  const poolIds: string[] = [];
  events.on('pool:create', ({ workerPool }) => poolIds.push(workerPool.id));
  const jobs = trackJobs(events);
  observeJobs(events, services.metrics);
  services.metrics.databasePools.set('jobs', () => pgPool);
  const runner = await run({
    pgPool,
    events,
    concurrency: services.config.workerConcurrency,
    taskList: taskList(services),
    crontab: CRONTAB,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: workerLogger(services.logger),
    // Running jobs see helpers.abortSignal fire this long after a stop begins.
    gracefulShutdownAbortTimeout: services.config.shutdownGraceSeconds * 1000,
  });
  const liveness = await startLiveness(pgPool, poolIds[0], jobs, services.config.workerLiveness, log);
  let stopping = false;
  // A runner that ended by itself takes no more jobs: the heartbeat must not vouch for it any longer.
  runner.promise
    .then(
      () => !stopping && log.error('the job runner stopped by itself; heartbeat stopped'),
      (error: Error) => !stopping && log.error(`the job runner failed (${error.message}); heartbeat stopped`),
    )
    .finally(() => !stopping && liveness.stop());
  return {
    async stop(graceMs) {
      stopping = true;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
      const outcome = await Promise.race([runner.stop().catch(() => {}), late]);
      clearTimeout(timer);
      // A graceful stop would wait for those jobs however long they take; kill() releases them instead.
      if (outcome === 'late') {
        log.warn(`jobs still running after ${graceMs / 1000} s; handing them back to the queue`);
        await runner.kill().catch(() => {});
      }
      await settleJobs(pgPool, poolIds).catch((error: Error) => log.error(`could not settle jobs: ${error.message}`));
      await liveness.stop();
    },
  };
}
