// What an attempt's result does to its task, when the attempt ends and when staff override it:
// the `scorm` comment that states the result (one per attempt, rewritten by an override), and
// the move to the definition's pass status through changeTask (docs/online-tests.md, "Extra
// attempts, the time delay and passing").
import type { TaskStatus } from '../../../schema/enums.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { dataModelFacts, type DataModel } from '../../domain/scorm-datamodel.ts';
import { resultDescription } from '../../domain/test-attempts.ts';
import type { ScormTrust } from '../../domain/vocabulary.ts';
import type { TaskActor } from '../../policy/index.ts';
import { changeTask } from '../tasks/change-task.ts';
import { insertComments } from '../tasks/comments.ts';
import { mainConvenorOf, tutorFor } from '../tasks/people.ts';
import { publishTaskEvent } from '../live/publish-task-event.ts';
import { isLockedFor } from '../units/task_definitions/prerequisites/unmet-prerequisites.ts';

/** The task an attempt belongs to, as its result needs it. */
export interface AttemptTask {
  id: number;
  projectId: number;
  unitId: number;
  studentId: number;
  status: TaskStatus;
  definition: { id: number; scormTrust: ScormTrust; scormPassStatus: TaskStatus | null; hasUploads: boolean };
}

export async function loadAttemptTask(em: Em, taskId: number): Promise<AttemptTask> {
  const row = await db(em)
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('task_definitions as d', 'd.id', 't.task_definition_id')
    .select([
      't.id',
      't.project_id',
      't.status',
      'p.unit_id',
      'p.user_id',
      'd.id as definition_id',
      'd.scorm_trust',
      'd.scorm_pass_status',
      'd.upload_requirements',
    ])
    .where('t.id', '=', taskId)
    .executeTakeFirstOrThrow();
  const uploads = row.upload_requirements as unknown;
  return {
    id: row.id,
    projectId: row.project_id,
    unitId: row.unit_id,
    studentId: row.user_id as unknown as number,
    status: row.status as TaskStatus,
    definition: {
      id: row.definition_id,
      scormTrust: row.scorm_trust as ScormTrust,
      scormPassStatus: (row.scorm_pass_status as TaskStatus | null) ?? null,
      hasUploads: Array.isArray(uploads) && uploads.length > 0,
    },
  };
}

/**
 * Posts the attempt's `scorm` comment, or rewrites it (an override): from the student's tutor (the
 * unit's main convenor when there is none) to the student, as the original's.
 */
export async function stateResult(em: Em, task: AttemptTask, attemptId: number, passed: boolean, model: DataModel, now: Date): Promise<void> {
  const facts = dataModelFacts(model);
  const awaiting = !passed && task.definition.scormTrust === 'staff' && facts.reportedPass;
  const text = resultDescription(passed, awaiting, facts);
  const existing = await db(em)
    .updateTable('task_comments')
    .set({ comment: text })
    .where('test_attempt_id', '=', attemptId)
    .where('kind', '=', 'scorm')
    .returning('id')
    .execute();
  if (existing.length > 0) {
    await publishTaskEvent(em, 'comment', [task.id]);
    return;
  }
  const author = (await tutorFor(em, task.projectId, task.definition.id)) ?? (await mainConvenorOf(em, task.unitId)) ?? task.studentId;
  await insertComments(em, [{ taskId: task.id, authorId: author, recipientId: task.studentId, kind: 'scorm', comment: text, testAttemptId: attemptId }], now);
}

/**
 * Moves a task whose attempt passed to the definition's pass status, when it has one, as a status
 * change by `actor` through changeTask, so that every rule of a person's change holds: a student
 * (a pass on the package's word) reaches only the statuses a student may set, and not out of a
 * closed or restricted status; staff (an override) reach any, with the comment the unit's enforced
 * feedback asks for (400 without it). Ready for feedback on a definition that wants uploads is
 * left to the upload, and so is a task its prerequisites lock. A refused move leaves the task as it was;
 * the pass still stands.
 */
export async function movePassedTask(
  em: Em,
  task: AttemptTask,
  actor: { userId: number; role: TaskActor },
  comment: string | undefined,
  now: Date,
): Promise<void> {
  const target = task.definition.scormPassStatus;
  if (target === null || task.status === target) return;
  if (target === 'ready_for_feedback' && task.definition.hasUploads) return;
  // A student's pass does not hand in a task locked by its prerequisites (docs/prerequisites.md).
  if (target === 'ready_for_feedback' && (await isLockedFor(em, actor.role, task.projectId, task.definition.id))) return;
  await changeTask(em, task.id, { actor, change: { kind: 'trigger', target }, comment }, now);
}
