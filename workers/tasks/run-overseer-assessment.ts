import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Task } from 'graphile-worker';
import { sql } from 'kysely';
import { z } from 'zod';
import { mergeOutput, type StepOutcome } from '../../src/operations/assessment/output.ts';
import { containerUser, prepareSandbox, readOutput } from '../../src/operations/assessment/sandbox.ts';
import { db } from '../../src/db/kysely.ts';
import { statusForTrigger } from '../../src/domain/task-status.ts';
import { storageKeys } from '../../src/storage/index.ts';
import { changeTask } from '../../src/operations/tasks/change-task.ts';
import { insertComments } from '../../src/operations/tasks/comments.ts';
import { tutorFor } from '../../src/operations/tasks/people.ts';
import { overseerRunner, type OverseerRunner } from '../../src/adapters/overseer-runner.ts';
import type { WorkerServices } from '../services.ts';
import { ROLE } from '../../src/policy/index.ts';

const payloadSchema = z.object({ assessmentId: z.number().int().positive() });

/** Container names of a record's steps: a retry finds (and removes) what a dead worker left. */
export const containerNames = (assessmentId: number) => ({ build: `overseer-${assessmentId}-build`, run: `overseer-${assessmentId}-run` });

type Finish =
  | { kind: 'ran'; steps: StepOutcome[]; diffs: Partial<Record<'build' | 'run', string>> }
  /** Nothing ran; the text says why (recorded as output, status done or queue_failed). */
  | { kind: 'not-run'; status: 'done' | 'queue_failed'; text: string };

/**
 * Runs an upload's automated assessment (behaviour.md §6 "Runner" and "Result handling"): the
 * submission and the resources in a sandbox, `build` then (if it succeeded) `run` in containers,
 * the merged output stored, the record done, `new_status` applied while the task waits for
 * feedback, and an assessment comment with the messages. A step stopped at its time or memory
 * limit is an outcome, recorded as such; only an engine that cannot be reached is retried, and
 * after the last attempt recorded as `queue_failed`.
 */
export function runOverseerAssessment(
  services: WorkerServices,
  runnerFor: (s: WorkerServices) => OverseerRunner = (s) => overseerRunner(s.config.docker.host, s.config.docker.idleMs),
): Task {
  return async (rawPayload, helpers) => {
    const { assessmentId } = payloadSchema.parse(rawPayload);
    const { storage, config } = services;
    const limits = config.overseer;
    const em = services.orm.em.fork();
    const k = db(em);
    const putText = (key: string, text: string) => storage.put(key, Readable.from([Buffer.from(text)]));
    const record = await k
      .selectFrom('overseer_assessments as a')
      .innerJoin('tasks as t', 't.id', 'a.task_id')
      .innerJoin('task_definitions as d', 'd.id', 't.task_definition_id')
      .innerJoin('units as u', 'u.id', 'd.unit_id')
      .leftJoin('overseer_images as i', (j) => j.on(sql<boolean>`i.id = coalesce(d.overseer_image_id, u.overseer_image_id)`))
      .select(['a.id', 'a.status', 'a.task_id', 'a.submission_timestamp', 't.project_id', 't.task_definition_id', 'i.tag'])
      .where('a.id', '=', assessmentId)
      .executeTakeFirst();
    if (!record) return helpers.logger.info(`assessment ${assessmentId} no longer exists`);
    if (record.status === 'done') return helpers.logger.info(`assessment ${assessmentId} is done already`);

    const names = containerNames(assessmentId);
    const runner = runnerFor(services);
    let finish: Finish;
    try {
      await runner.removeContainers([names.build, names.run]);
      finish = await runSteps();
    } catch (error) {
      if (helpers.abortSignal?.aborted) throw error;
      // The engine did not answer (or refused): another attempt may find it, the last one records it.
      if (helpers.job.attempts < helpers.job.max_attempts) throw error;
      finish = { kind: 'not-run', status: 'queue_failed', text: `The assessment could not run: ${(error as Error).message}\n` };
    }
    await record_(finish);

    async function runSteps(): Promise<Finish> {
      if (!record!.tag) return { kind: 'not-run', status: 'done', text: 'No overseer image is set for this task or its unit\n' };
      const resourcesKey = storageKeys.taskAssessmentResources(record!.task_definition_id);
      if (!(await storage.exists(resourcesKey))) return { kind: 'not-run', status: 'done', text: 'This task has no assessment resources\n' };
      const files = await k
        .selectFrom('task_submissions as s')
        .innerJoin('submission_files as f', 'f.submission_id', 's.id')
        .select(['f.storage_path', 'f.name', 'f.idx'])
        .where('s.task_id', '=', record!.task_id)
        .where('s.submitted_at', '=', record!.submission_timestamp)
        .orderBy('f.idx')
        .execute();
      if (files.length === 0) return { kind: 'not-run', status: 'done', text: 'The upload was replaced before its assessment ran\n' };

      const user = containerUser(limits.user);
      const named = files.map((f) => ({ storagePath: f.storage_path, name: f.name + extensionOf(f.storage_path, f.name) }));
      const sandbox = await prepareSandbox(storage, limits.workDir, `overseer-${assessmentId}`, named, resourcesKey, user);
      try {
        const steps: StepOutcome[] = [];
        const diffs: Partial<Record<'build' | 'run', string>> = {};
        for (const mode of ['build', 'run'] as const) {
          const outputName = randomBytes(8).toString('hex');
          const result = await runner.runStep({
            name: names[mode],
            image: record!.tag,
            mode,
            outputName,
            sandboxDir: sandbox.sandboxDir,
            outputDir: sandbox.outputDir,
            limits: { ...limits, user },
            signal: helpers.abortSignal,
          });
          const [text, yaml] = await Promise.all([
            readOutput(join(sandbox.outputDir, `${outputName}.txt`)),
            readOutput(join(sandbox.outputDir, `${outputName}.yaml`)),
          ]);
          steps.push({ mode, exitCode: result.exitCode, timedOut: result.timedOut, oomKilled: result.oomKilled, text, yaml, logs: result.logs });
          diffs[mode] = result.diff;
          // A build that failed leaves nothing to run.
          if (result.exitCode !== 0 || result.timedOut || result.oomKilled) break;
        }
        return { kind: 'ran', steps, diffs };
      } finally {
        await sandbox.remove();
      }
    }

    async function record_(done: Finish): Promise<void> {
      const outputKey = storageKeys.assessmentOutput(assessmentId, 'output.txt');
      const merged = done.kind === 'ran' ? mergeOutput(done.steps, limits) : null;
      await putText(outputKey, merged ? merged.text : done.kind === 'not-run' ? done.text : '');
      if (merged) {
        await putText(storageKeys.assessmentOutput(assessmentId, 'output.yaml'), merged.yaml);
        for (const mode of ['build', 'run'] as const) {
          const key = storageKeys.assessmentOutput(assessmentId, `${mode}-diff.txt`);
          const diff = done.kind === 'ran' ? done.diffs[mode] : undefined;
          if (diff === undefined) await storage.delete(key);
          else await putText(key, diff ? `${diff}\n` : '');
        }
      }
      const now = services.clock.now();
      await em.transactional(async (tx) => {
        const t = db(tx);
        const task = await t
          .selectFrom('tasks as t')
          .innerJoin('projects as p', 'p.id', 't.project_id')
          .select(['t.status', 'p.user_id'])
          .where('t.id', '=', record!.task_id)
          .executeTakeFirstOrThrow();
        const tutor = (await tutorFor(tx, record!.project_id, record!.task_definition_id)) ?? task.user_id;
        const target = merged?.newStatus ? statusForTrigger(merged.newStatus) : undefined;
        if (target) {
          await changeTask(
            tx,
            record!.task_id,
            { actor: { userId: tutor, role: ROLE.tutor }, change: { kind: 'automated', target, onlyFrom: 'ready_for_feedback' } },
            now,
          );
        }
        const after = await t.selectFrom('tasks').select('status').where('id', '=', record!.task_id).executeTakeFirstOrThrow();
        await t
          .updateTable('overseer_assessments')
          .set({
            status: done.kind === 'ran' ? 'done' : done.status,
            output_path: outputKey,
            result_task_status: target ?? after.status,
            updated_at: now.toISOString(),
          })
          .where('id', '=', assessmentId)
          .execute();
        const message = merged
          ? [merged.buildMessage, merged.runMessage].filter(Boolean).join('\n\n') || 'Automated assessment finished'
          : done.kind === 'not-run'
            ? done.text.trim()
            : '';
        const [commentId] = await insertComments(
          tx,
          [{ taskId: record!.task_id, authorId: tutor, recipientId: task.user_id, kind: 'assessment', comment: message }],
          now,
        );
        await t.updateTable('task_comments').set({ overseer_assessment_id: assessmentId }).where('id', '=', commentId).execute();
      });
    }
  };
}

/** The stored file's extension, added when the requirement's name has none (`main` → `main.py`). */
function extensionOf(storagePath: string, name: string): string {
  if (/\.[A-Za-z0-9]{1,10}$/.test(name)) return '';
  const m = /(\.[a-z0-9]{1,10})$/.exec(storagePath);
  return m ? m[1] : '';
}
