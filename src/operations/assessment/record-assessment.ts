// An automated assessment's run as the job sees it (workers/tasks/run-overseer-assessment.ts): the
// record and the image it runs in, the upload's files, and its outcome recorded (behaviour.md §6
// "Result handling"): the merged output stored, the record done, `new_status` applied while the
// task waits for feedback, and an assessment comment with the messages.
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { statusForTrigger } from '../../domain/task-status.ts';
import type { Clock } from '../../lib/clock.ts';
import { ROLE } from '../../policy/index.ts';
import { storageKeys, type Storage } from '../../storage/index.ts';
import { changeTask } from '../tasks/change-task.ts';
import { insertComments } from '../tasks/comments.ts';
import { tutorFor } from '../tasks/people.ts';
import { mergeOutput, type AssessmentLimits, type StepOutcome } from './output.ts';
import { stepsOutcome, storeStepResults } from './step-results.ts';
import type { StepResultToStore } from './run-steps.ts';

export type AssessmentFinish =
  | { kind: 'ran'; steps: StepOutcome[]; diffs: Partial<Record<'build' | 'run', string>> }
  /** The definition's assessment steps ran (docs/assessment-steps.md). */
  | { kind: 'steps'; results: StepResultToStore[] }
  /** Nothing ran; the text says why (recorded as output, status done or queue_failed). */
  | { kind: 'not-run'; status: 'done' | 'queue_failed'; text: string };

/** The record, its task and the tag of the image it runs in (the task's, else the unit's); undefined when gone. */
export async function assessmentToRun(em: Em, assessmentId: number) {
  return db(em)
    .selectFrom('overseer_assessments as a')
    .innerJoin('tasks as t', 't.id', 'a.task_id')
    .innerJoin('task_definitions as d', 'd.id', 't.task_definition_id')
    .innerJoin('units as u', 'u.id', 'd.unit_id')
    .leftJoin('overseer_images as i', (j) => j.on(sql<boolean>`i.id = coalesce(d.overseer_image_id, u.overseer_image_id)`))
    .select(['a.id', 'a.status', 'a.task_id', 'a.submission_timestamp', 't.project_id', 't.task_definition_id', 'i.tag'])
    .where('a.id', '=', assessmentId)
    .executeTakeFirst();
}
export type AssessmentToRun = NonNullable<Awaited<ReturnType<typeof assessmentToRun>>>;

/** The files of the upload the record assesses, in upload order (none once a newer upload replaced it). */
export async function assessmentFiles(em: Em, record: Pick<AssessmentToRun, 'task_id' | 'submission_timestamp'>) {
  return db(em)
    .selectFrom('task_submissions as s')
    .innerJoin('submission_files as f', 'f.submission_id', 's.id')
    .select(['f.storage_path', 'f.name', 'f.idx'])
    .where('s.task_id', '=', record.task_id)
    .where('s.submitted_at', '=', record.submission_timestamp)
    .orderBy('f.idx')
    .execute();
}

/** Stores the output and records the outcome, in one transaction for the rows; a rerun writes the same. */
export async function recordAssessment(
  em: Em,
  services: { storage: Storage; clock: Clock; limits: AssessmentLimits },
  record: AssessmentToRun,
  done: AssessmentFinish,
): Promise<void> {
  const { storage, limits } = services;
  const assessmentId = record.id;
  const putText = (key: string, text: string) => storage.put(key, Readable.from([Buffer.from(text)]));
  const outputKey = storageKeys.assessmentOutput(assessmentId, 'output.txt');
  const merged = done.kind === 'ran' ? mergeOutput(done.steps, limits) : null;
  // In steps, output.txt (which the student may read) is the summary comment: only what the flags allow.
  const stepped = done.kind === 'steps' ? stepsOutcome(done.results) : null;
  await putText(outputKey, merged ? merged.text : done.kind === 'not-run' ? done.text : `${stepped!.comment}\n`);
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
      .where('t.id', '=', record.task_id)
      .executeTakeFirstOrThrow();
    const tutor = (await tutorFor(tx, record.project_id, record.task_definition_id)) ?? task.user_id;
    const target = stepped ? (stepped.status ?? undefined) : merged?.newStatus ? statusForTrigger(merged.newStatus) : undefined;
    if (target) {
      await changeTask(
        tx,
        record.task_id,
        { actor: { userId: tutor, role: ROLE.tutor }, change: { kind: 'automated', target, onlyFrom: 'ready_for_feedback' } },
        now,
      );
    }
    const after = await t.selectFrom('tasks').select('status').where('id', '=', record.task_id).executeTakeFirstOrThrow();
    await t
      .updateTable('overseer_assessments')
      .set({
        status: done.kind === 'not-run' ? done.status : 'done',
        output_path: outputKey,
        result_task_status: target ?? after.status,
        updated_at: now.toISOString(),
      })
      .where('id', '=', assessmentId)
      .execute();
    // A re-run replaces the record's results (none when the definition has no steps now).
    await storeStepResults(tx, assessmentId, done.kind === 'steps' ? done.results : [], now);
    const message = merged
      ? [merged.buildMessage, merged.runMessage].filter(Boolean).join('\n\n') || 'Automated assessment finished'
      : done.kind === 'not-run'
        ? done.text.trim()
        : stepped!.comment;
    const [commentId] = await insertComments(
      tx,
      [{ taskId: record.task_id, authorId: tutor, recipientId: task.user_id, kind: 'assessment', comment: message }],
      now,
    );
    await t.updateTable('task_comments').set({ overseer_assessment_id: assessmentId }).where('id', '=', commentId).execute();
  });
}
