import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Task } from 'graphile-worker';
import { z } from 'zod';
import type { StepOutcome } from '../../src/operations/assessment/output.ts';
import { assessmentFiles, assessmentToRun, recordAssessment, type AssessmentFinish as Finish } from '../../src/operations/assessment/record-assessment.ts';
import { enabledSteps, runAssessmentSteps } from '../../src/operations/assessment/run-steps.ts';
import { containerUser, prepareSandbox, readOutput } from '../../src/operations/assessment/sandbox.ts';
import { storageKeys } from '../../src/storage/index.ts';
import { overseerRunner, type OverseerRunner } from '../../src/adapters/overseer-runner.ts';
import type { WorkerServices } from '../services.ts';

const payloadSchema = z.object({ assessmentId: z.number().int().positive() });

/** Container names of a record's steps: a retry finds (and removes) what a dead worker left. */
export const containerNames = (assessmentId: number) => ({ build: `overseer-${assessmentId}-build`, run: `overseer-${assessmentId}-run` });
/** Container name of an assessment step (docs/assessment-steps.md), by its place in the run. */
export const stepContainerName = (assessmentId: number, position: number) => `overseer-${assessmentId}-step-${position}`;

/**
 * Runs an upload's automated assessment (behaviour.md §6 "Runner" and "Result handling"): the
 * submission and the resources in a sandbox, `build` then (if it succeeded) `run` in containers,
 * the merged output stored, the record done, `new_status` applied while the task waits for
 * feedback, and an assessment comment with the messages. A step stopped at its time or memory
 * limit is an outcome, recorded as such; only an engine that cannot be reached is retried, and
 * after the last attempt recorded as `queue_failed`. A definition with enabled assessment steps runs
 * those instead of build and run (docs/assessment-steps.md), each in its own container.
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
    const record = await assessmentToRun(em, assessmentId);
    if (!record) return helpers.logger.info(`assessment ${assessmentId} no longer exists`);
    if (record.status === 'done') return helpers.logger.info(`assessment ${assessmentId} is done already`);

    const names = containerNames(assessmentId);
    const steps = await enabledSteps(em, record.task_definition_id);
    const runner = runnerFor(services);
    let finish: Finish;
    try {
      await runner.removeContainers([names.build, names.run, ...steps.map((_s, i) => stepContainerName(assessmentId, i))]);
      finish = await runSteps();
    } catch (error) {
      if (helpers.abortSignal?.aborted) throw error;
      // The engine did not answer (or refused): another attempt may find it, the last one records it.
      if (helpers.job.attempts < helpers.job.max_attempts) throw error;
      finish = { kind: 'not-run', status: 'queue_failed', text: `The assessment could not run: ${(error as Error).message}\n` };
    }
    await recordAssessment(em, { storage, clock: services.clock, limits }, record, finish);

    async function runSteps(): Promise<Finish> {
      if (!record!.tag) return { kind: 'not-run', status: 'done', text: 'No overseer image is set for this task or its unit\n' };
      const resourcesKey = storageKeys.taskAssessmentResources(record!.task_definition_id);
      if (!(await storage.exists(resourcesKey))) return { kind: 'not-run', status: 'done', text: 'This task has no assessment resources\n' };
      const files = await assessmentFiles(em, record!);
      if (files.length === 0) return { kind: 'not-run', status: 'done', text: 'The upload was replaced before its assessment ran\n' };

      const user = containerUser(limits.user);
      const named = files.map((f) => ({ storagePath: f.storage_path, name: f.name + extensionOf(f.storage_path, f.name) }));
      const sandbox = await prepareSandbox(storage, limits.workDir, `overseer-${assessmentId}`, named, resourcesKey, user);
      try {
        if (steps.length > 0) {
          const results = await runAssessmentSteps(
            {
              runner,
              image: record!.tag,
              sandbox,
              limits: { ...limits, user },
              containerName: (position) => stepContainerName(assessmentId, position),
              signal: helpers.abortSignal,
            },
            steps,
          );
          return { kind: 'steps', results };
        }
        const outcomes: StepOutcome[] = [];
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
          outcomes.push({ mode, exitCode: result.exitCode, timedOut: result.timedOut, oomKilled: result.oomKilled, text, yaml, logs: result.logs });
          diffs[mode] = result.diff;
          // A build that failed leaves nothing to run.
          if (result.exitCode !== 0 || result.timedOut || result.oomKilled) break;
        }
        return { kind: 'ran', steps: outcomes, diffs };
      } finally {
        await sandbox.remove();
      }
    }
  };
}

/** The stored file's extension, added when the requirement's name has none (`main` → `main.py`). */
function extensionOf(storagePath: string, name: string): string {
  if (/\.[A-Za-z0-9]{1,10}$/.test(name)) return '';
  const m = /(\.[a-z0-9]{1,10})$/.exec(storagePath);
  return m ? m[1] : '';
}
