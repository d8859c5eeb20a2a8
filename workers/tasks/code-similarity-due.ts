import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { queueDueCodeSimilarity } from '../../src/operations/similarity/code-similarity-due.ts';
import type { WorkerServices } from '../services.ts';

/** How often the crontab runs this item (workers/index.ts): each run looks back this far. */
export const CODE_SIMILARITY_INTERVAL_MS = 24 * 3600_000;

const payload = z.object({ _cron: z.object({ ts: z.string() }).partial().optional() }).loose();

/**
 * The daily cron item: queues `code_similarity` for each task definition whose target date has
 * passed (the end of that day anywhere on earth) and which has code handed in since the
 * previous run, or whose target date passed since then. "Since the previous run" is the day
 * before the scheduled time graphile-worker gives the item; with the crontab's backfill, runs
 * missed while no worker was up are made up, so no state of our own is kept. A definition
 * already queued is queued once (job key).
 */
export function codeSimilarityDueTask(services: WorkerServices): Task {
  return async (raw) => {
    const ts = payload.parse(raw ?? {})._cron?.ts;
    const until = ts ? new Date(ts) : services.clock.now();
    const since = new Date(until.getTime() - CODE_SIMILARITY_INTERVAL_MS);
    await queueDueCodeSimilarity(services.orm.em.fork(), since, until);
  };
}
