// The one operation that changes a task. A REST trigger, an upload, an extension grant, batch
// marking, the week-end trigger and the workers' results all come here: it locks the task (and
// its group's tasks), asks the rules in src/domain/task-rules.ts what follows, and writes the
// task, its status comments, its submission history and the projects' stored progress stats, and
// queues the grade passback to an LMS gradebook when the task's score may have changed.
import type { TaskStatus } from '../../../schema/enums.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { grantExtension, submit, trigger, type Outcome, type TaskState } from '../../domain/task-rules.ts';
import { badRequest } from '../../lib/errors.ts';
import {
  mayTrigger,
  missingFeedbackRefusal,
  requiredDiscussionRefusal,
  roleOnFellowMembersTask,
  type TaskActor,
  type TriggerCheck,
} from '../../policy/index.ts';
import { DISCUSSING, NOT_PROPAGATED, PROPAGATION_SKIPS, statusForTrigger, UPLOAD_SKIPS } from '../../domain/task-status.ts';
import { scoreMayChange } from '../../domain/lti-scores.ts';
import { queueScorePassbacks } from '../lti/score-passback.ts';
import { refreshProjectStats } from '../projects/refresh-project-stats.ts';
import { publishTaskEvent } from '../live/publish-task-event.ts';
import { insertComments, statusCommentText, type NewComment } from './comments.ts';
import { groupSubmissionTasks, type Contribution } from './group-submission.ts';
import { tutorFor } from './people.ts';
import { refuseHandInWhileLocked } from '../units/task_definitions/prerequisites/unmet-prerequisites.ts';
import { loadTasks, type LoadedTask } from './tasks.ts';

export type TaskChange =
  /** A status asked for by a person (PUT trigger, batch marking, week end). */
  | { kind: 'trigger'; target: TaskStatus; qualityPts?: number | null }
  /** Files uploaded: need_help keeps them as a request for help, anything else hands the work in. */
  | { kind: 'upload'; needHelp: boolean; contributions?: Contribution[] }
  /** Extension weeks granted (by staff, or automatically). */
  | { kind: 'extend'; weeks: number }
  /** An automatic outcome, recorded as the student's tutor's (PDF failure, assessment result); `onlyFrom` guards it. */
  | { kind: 'automated'; target: TaskStatus; onlyFrom?: TaskStatus };

export interface ChangeRequest {
  actor: { userId: number; role: TaskActor };
  change?: TaskChange;
  /** A validated grade (-1..3), given to the task and its group. */
  grade?: number;
  /** Validated quality points (-1..max), given to the task and its group like a grade (a rubric mark's mapping). */
  qualityPts?: number;
  includeInPortfolio?: boolean;
  /**
   * A comment the actor sends with the change (trigger feedback, a batch-marking row's comment,
   * applied templates): posted on the task before its status comment, in the same transaction.
   * Where the unit requires feedback, a staff move to FEEDBACK_REQUIRED needs it (400 otherwise).
   */
  comment?: string;
}

export interface ChangeResult {
  /** False when the rules refused the status change (nothing about the status was written). */
  applied: boolean;
  refusal?: Exclude<TriggerCheck, { ok: true }>['reason'];
  /** The task and, for group work, the other members' tasks that changed with it. */
  taskIds: number[];
  projectIds: number[];
  /** Weeks granted by this change (extension, or automatic on fix and resubmit). */
  extensionGranted: number;
  /** The submission-history entry an upload's files belong to. */
  submissionId?: number;
  /** The id of the request's `comment`, when one was posted. */
  commentId?: number;
}

/** Applies one change to a task, inside the caller's transaction. */
export async function changeTask(em: Em, taskId: number, request: ChangeRequest, now: Date): Promise<ChangeResult> {
  // Locks in one order everywhere: a group task's group row first, then the tasks by id. Two
  // members acting at once then queue on the group instead of deadlocking on each other's tasks.
  let [task] = await loadTasks(em, [taskId], false);
  let lockIds = [task.id];
  const propagates = request.change !== undefined && request.change.kind !== 'extend';
  if (task.groupSetId !== null && (propagates || request.grade !== undefined || request.qualityPts !== undefined)) {
    const upload = request.change?.kind === 'upload' ? request.change : undefined;
    const groupTaskIds = await groupSubmissionTasks(
      em,
      {
        id: task.id,
        project_id: task.projectId,
        task_definition_id: task.taskDefinitionId,
        group_submission_id: task.groupSubmissionId,
        group_set_id: task.groupSetId,
      },
      { submitter: upload !== undefined, contributions: upload?.contributions, now },
    );
    lockIds = [...new Set([task.id, ...groupTaskIds])].sort((a, b) => a - b);
  }
  const locked = await loadTasks(em, lockIds, true);
  task = locked.find((t) => t.id === taskId)!;
  const members = locked.filter((t) => t.id !== taskId);

  const result: ChangeResult = { applied: true, taskIds: [task.id], projectIds: [task.projectId], extensionGranted: 0 };
  const outcome = request.change ? decide(task, request.actor.role, request.change, now) : { outcome: none(task.state) };
  if ('refusal' in outcome) return { ...result, applied: false, refusal: outcome.refusal, taskIds: [], projectIds: [] };
  // A student hands in only once the task's prerequisites are met (docs/prerequisites.md).
  await refuseHandInWhileLocked(em, task, request.actor.role, outcome.outcome.state.status);
  // Before anything is written: a refused change leaves no trace.
  if (request.change?.kind === 'trigger') {
    const missing = missingFeedbackRefusal({
      unitRequires: task.requireFeedbackComment,
      role: request.actor.role,
      from: task.state.status,
      to: outcome.outcome.state.status,
      comment: request.comment,
    });
    if (missing) throw badRequest(missing);
  }
  // Required discussion checks the task acted on; group members follow it (docs/discussion-prompts.md).
  // An automatic result (an assessment passing) is not an answer to anyone: it leaves the task as it is.
  const undiscussed = requiredDiscussionRefusal({
    ...task.discussion,
    submissionDate: task.state.submissionDate,
    role: request.actor.role,
    from: task.state.status,
    to: outcome.outcome.state.status,
  });
  if (undiscussed && request.change?.kind === 'automated') return { ...result, applied: false, taskIds: [], projectIds: [] };
  if (undiscussed) throw badRequest(undiscussed);

  const automated = request.change?.kind === 'automated';
  const tutorId = outcome.outcome.notes.length > 0 ? await tutorFor(em, task.projectId, task.taskDefinitionId) : null;
  const feedback = (request.comment ?? '').trim();
  const student = task.studentId === request.actor.userId;
  const given: NewComment[] =
    feedback === ''
      ? []
      : [
          {
            taskId: task.id,
            authorId: request.actor.userId,
            recipientId: student ? (tutorId ?? (await tutorFor(em, task.projectId, task.taskDefinitionId))) : task.studentId,
            kind: 'text',
            comment: feedback,
          },
        ];
  const statusNotes: NewComment[] = outcome.outcome.notes.map((note) => {
    const author = note.by === 'tutor' || automated ? (tutorId ?? request.actor.userId) : request.actor.userId;
    return {
      taskId: task.id,
      authorId: author,
      recipientId: author === task.studentId ? tutorId : task.studentId,
      kind: 'status',
      comment: statusCommentText(note.status),
      taskStatus: note.status,
    };
  });

  const next = { ...outcome.outcome.state };
  if (request.grade !== undefined) next.grade = request.grade;
  if (request.qualityPts !== undefined) next.qualityPts = request.qualityPts;
  // Tasks whose score in an LMS gradebook may have changed (grade passback).
  const rescored = scoreMayChange(task.state, next) ? [task.id] : [];
  await writeTask(em, task.id, task.state.status, next, now, request.includeInPortfolio, request.change?.kind === 'upload');
  result.submissionId = await recordHistory(em, task.id, outcome.outcome, request.actor.userId, now, request.change?.kind === 'upload');
  const commentIds = await insertComments(em, [...given, ...statusNotes], now);
  if (given.length > 0) result.commentId = commentIds[0];
  result.extensionGranted = outcome.outcome.extensionGranted;

  // The rest of the group follows, unless the change is one member's own (working on it, help).
  const statusMoved = outcome.outcome.state.status !== task.state.status || outcome.outcome.submitted || outcome.outcome.assessed;
  const follow = propagates && statusMoved && !NOT_PROPAGATED.has(next.status);
  for (const member of members) {
    let memberNext: TaskState = { ...member.state };
    let memberOutcome: Outcome | undefined;
    if (follow && request.change && !PROPAGATION_SKIPS.has(member.state.status)) {
      const base = { ...member, state: { ...member.state, extensions: Math.max(member.state.extensions, next.extensions) } };
      const decided = decide(base, roleOnFellowMembersTask(request.actor.role), request.change, now);
      if ('outcome' in decided) {
        memberOutcome = decided.outcome;
        memberNext = { ...decided.outcome.state };
      }
    }
    if (request.grade !== undefined) memberNext.grade = request.grade;
    if (request.qualityPts !== undefined) memberNext.qualityPts = request.qualityPts;
    if (!memberOutcome && request.grade === undefined && request.qualityPts === undefined) continue;
    await writeTask(em, member.id, member.state.status, memberNext, now, undefined, request.change?.kind === 'upload');
    if (scoreMayChange(member.state, memberNext)) rescored.push(member.id);
    if (memberOutcome) await recordHistory(em, member.id, memberOutcome, request.actor.userId, now, false);
    result.taskIds.push(member.id);
    result.projectIds.push(member.projectId);
  }

  await refreshProjectStats(em, result.projectIds);
  // Watchers of these tasks and their units' inboxes hear of it once this transaction commits.
  await publishTaskEvent(em, 'status', result.taskIds);
  if (rescored.length > 0) await queueScorePassbacks(em, { taskDefinitionId: task.taskDefinitionId, taskIds: rescored }, now);
  return result;
}

const none = (state: TaskState): Outcome => ({ state, notes: [], submitted: false, assessed: false, extensionGranted: 0 });

function decide(task: LoadedTask, role: TaskActor, change: TaskChange, now: Date): { outcome: Outcome } | { refusal: NonNullable<ChangeResult['refusal']> } {
  switch (change.kind) {
    case 'trigger': {
      const check = mayTrigger(role, task.state.status, change.target, task.terms);
      if (!check.ok) return { refusal: check.reason };
      return { outcome: trigger(task.state, { target: change.target, qualityPts: change.qualityPts }, now, task.terms) };
    }
    case 'upload': {
      // Work in a closed task stays as assessed; the files are still kept.
      if (UPLOAD_SKIPS.has(task.state.status)) return { outcome: none(task.state) };
      if (change.needHelp) return { outcome: trigger(task.state, { target: 'need_help' }, now, task.terms) };
      return { outcome: submit(task.state, now, task.terms) };
    }
    case 'extend':
      return { outcome: grantExtension(task.state, change.weeks, task.terms) };
    case 'automated': {
      if (change.onlyFrom !== undefined && task.state.status !== change.onlyFrom) return { outcome: none(task.state) };
      return { outcome: trigger(task.state, { target: change.target }, now, task.terms) };
    }
  }
}

async function writeTask(
  em: Em,
  id: number,
  from: TaskStatus,
  s: TaskState,
  now: Date,
  includeInPortfolio: boolean | undefined,
  filesUploaded: boolean,
): Promise<void> {
  // Entering discuss or demonstrate starts a new stay: its time, and no timeout notice sent yet.
  const entersDiscussion = DISCUSSING.has(s.status) && s.status !== from;
  await db(em)
    .updateTable('tasks')
    .set({
      status: s.status,
      extensions: s.extensions,
      times_assessed: s.timesAssessed,
      grade: s.grade,
      quality_pts: s.qualityPts,
      submission_date: s.submissionDate?.toISOString() ?? null,
      assessment_date: s.assessmentDate?.toISOString() ?? null,
      completion_date: s.completionDate,
      updated_at: new Date().toISOString(),
      ...(includeInPortfolio === undefined ? {} : { include_in_portfolio: includeInPortfolio }),
      ...(filesUploaded ? { file_uploaded_at: now.toISOString() } : {}),
      ...(entersDiscussion ? { moved_to_discuss_at: now.toISOString(), notified_discuss_warning_at: null, notified_discuss_expiry_at: null } : {}),
    })
    .where('id', '=', id)
    .execute();
}

const HOUR_MS = 3_600_000;

/**
 * The submission history (§4.3, §4.4): a new submission opens an entry, unless the latest is
 * unassessed and under an hour old (then it is re-dated); uploaded files always have an entry
 * to belong to. An assessment completes the latest unassessed entry, or adds one for the same
 * submission. Returns the entry the change left current.
 */
async function recordHistory(em: Em, taskId: number, outcome: Outcome, userId: number, now: Date, filesUploaded: boolean): Promise<number | undefined> {
  if (!outcome.submitted && !outcome.assessed && !filesUploaded) return undefined;
  const k = db(em);
  const latest = await k
    .selectFrom('task_submissions')
    .select(['id', 'submitted_at', 'assessor_id', 'assessed_at'])
    .where('task_id', '=', taskId)
    .orderBy('submitted_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  let current = latest;
  if (outcome.submitted || filesUploaded) {
    const recent = latest && latest.assessed_at === null && latest.assessor_id === null && now.getTime() < new Date(latest.submitted_at).getTime() + HOUR_MS;
    if (recent) {
      await k.updateTable('task_submissions').set({ submitted_at: now.toISOString(), submitted_by_id: userId }).where('id', '=', latest.id).execute();
      current = { ...latest, submitted_at: now.toISOString() };
    } else {
      const row = await k
        .insertInto('task_submissions')
        .values({ task_id: taskId, submitted_by_id: userId, submitted_at: now.toISOString(), processing: false })
        .returning(['id', 'submitted_at', 'assessor_id', 'assessed_at'])
        .executeTakeFirstOrThrow();
      current = row;
    }
  }
  if (outcome.assessed) {
    const assessment = { assessor_id: userId, assessed_at: now.toISOString(), outcome: outcome.state.status };
    if (current && current.assessed_at === null) {
      await k.updateTable('task_submissions').set(assessment).where('id', '=', current.id).execute();
    } else {
      await k
        .insertInto('task_submissions')
        .values({ task_id: taskId, submitted_by_id: null, submitted_at: current?.submitted_at ?? now.toISOString(), processing: false, ...assessment })
        .execute();
    }
  }
  return current?.id;
}

/** The status a trigger word names, for callers that accept the original's aliases. */
export { statusForTrigger };
