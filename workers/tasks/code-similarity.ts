import type { Task } from 'graphile-worker';
import { z } from 'zod';
import { compareCodeInThread } from '../../src/threads/tasks.ts';
import { definitionCodeSettings, latestCode, mossReport, readCode, type LatestCode } from '../../src/operations/similarity/code-submissions.ts';
import { recordCodeSimilarities, type SimilarityRow } from '../../src/operations/similarity/record-code-similarities.ts';
import type { WorkerServices } from '../services.ts';

const payload = z.object({ taskDefinitionId: z.number().int() });
/**
 * Compares the latest code of every student's task of a definition (a group's once) and records,
 * for every pair where either side shares at least the definition's `plagiarism_warn_pct` of its
 * code with the other, one `moss` similarity on each side's tasks: `pct` is that side's share,
 * flagged when it reaches the threshold. The definition's moss similarities are replaced as a
 * whole, so a rerun gives the same rows; a flag staff dismissed stays dismissed while both
 * compared submissions are the same.
 */
export function codeSimilarityTask(services: WorkerServices): Task {
  return async (raw, helpers) => {
    const { taskDefinitionId } = payload.parse(raw);
    const em = services.orm.em.fork();
    const settings = await definitionCodeSettings(em, taskDefinitionId);
    if (!settings) return;
    const started = Date.now();
    const entries = await latestCode(em, settings);
    const submissions = [];
    for (const entry of entries) {
      if (helpers.abortSignal?.aborted) throw new Error('stopped while reading submissions; the job will run again');
      submissions.push({ key: String(entry.submissionId), files: await readCode(services.storage, entry.files) });
    }
    // Tokenizing and winnowing a class's code takes seconds: in a pool thread, off the event loop.
    const matches = await compareCodeInThread(
      services.config.threads,
      { submissions, options: services.config.codeSimilarity },
      { signal: helpers.abortSignal },
    );
    const bySubmission = new Map(entries.map((e) => [String(e.submissionId), e]));
    const rows: SimilarityRow[] = [];
    const side = (self: LatestCode, other: LatestCode, pct: number) =>
      self.taskIds.map((taskId) => ({
        task_id: taskId,
        other_task_id: other.taskId,
        pct,
        flagged: pct >= settings.warnPct,
        report_path: mossReport(self.submissionId, other.submissionId),
      }));
    for (const m of matches) {
      if (Math.max(m.leftPct, m.rightPct) < settings.warnPct) continue;
      const left = bySubmission.get(m.left)!;
      const right = bySubmission.get(m.right)!;
      rows.push(...side(left, right, m.leftPct), ...side(right, left, m.rightPct));
    }

    await recordCodeSimilarities(em, settings, rows, services.clock);
    helpers.logger.info(
      `code similarity of task definition ${settings.id}: ${entries.length} submissions, ${rows.length} similarities, ${Date.now() - started} ms`,
    );
  };
}
