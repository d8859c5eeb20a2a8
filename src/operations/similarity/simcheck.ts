// The document similarity checks (TurnItIn style), as the rest of the service uses them: the
// agreement (EULA), running a recorded action, and a similarity's viewer URL and PDF report.
import { SimcheckAction, SimcheckSubmission, SubmissionFile, Task, TaskSimilarity, User, type ISimcheckAction } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import { storedDownload, type Storage } from '../../storage/index.ts';
import type { FileResult } from '../../lib/files.ts';
import { runDeleteAttachment, runUploadAttachment } from './simcheck-attachments.ts';
import { actionRun, call, createAction, markComplete, perform, type ActionKind, type ActionRun, type Runner } from './simcheck-actions.ts';
import { isChecked, READY_FOR_VIEWER, runUploadSubmission } from './simcheck-submission.ts';
import { refId, refIdOrNull } from '../../db/refs.ts';

type Action = ISimcheckAction;

export interface SimcheckServices {
  config: Config;
  storage: Storage;
  clock: { now(): Date };
}

/** The EULA is fetched again once a day, as the original refreshed its cache. */
const EULA_FRESH_MS = 24 * 3600_000;

export interface Eula {
  version: string;
  html: string;
}

async function fetchEula(run: ActionRun, action: Action): Promise<void> {
  const eula = await call(run, action, 'fetch EULA version', () => run.client.latestEula());
  if (!eula?.version) return;
  const html = await call(run, action, `fetch EULA html for ${eula.version}`, () => run.client.eulaHtml(eula.version));
  if (html === undefined) return;
  action.params = { ...action.params, version: eula.version, html };
  markComplete(action);
}

async function acceptEula(run: ActionRun, action: Action): Promise<void> {
  const user = await run.em.findOne(User, { id: Number(action.params?.userId) });
  if (!user?.simcheckEulaAcceptedAt || !user.simcheckEulaVersion) return markComplete(action);
  const accepted = await call(
    run,
    action,
    `accept EULA for user ${user.id}`,
    async () => {
      await run.client.acceptEula({
        user_id: user.username,
        accepted_timestamp: user.simcheckEulaAcceptedAt!.toISOString(),
        language: 'en-US',
        version: user.simcheckEulaVersion!,
      });
      return true;
    },
    [{ status: 404, code: 'custom_error', message: 'EULA version was not found' }],
  );
  if (accepted) markComplete(action);
}

async function deleteSubmission(run: ActionRun, action: Action): Promise<void> {
  const remoteId = String(action.params?.remoteId ?? '');
  const deleted = await call(run, action, `Deleting submission ${remoteId}`, () => run.client.deleteSubmission(remoteId).then(() => true), [
    { status: 404, code: 'custom_error', message: 'Submission not found in delete submission' },
  ]);
  if (deleted) markComplete(action);
}

const RUNNERS: Record<ActionKind, Runner> = {
  fetch_eula: fetchEula,
  accept_eula: acceptEula,
  // An assignment is created on the service when its first attachment goes up (see simcheck-attachments.ts).
  update_group: async (_run, action) => markComplete(action),
  upload_task_resources: runUploadAttachment,
  upload_submission: runUploadSubmission,
  delete_submission: deleteSubmission,
  delete_group_attachment: runDeleteAttachment,
  // Viewer URLs are made for one caller and answered at once; such a row is only a record.
  get_view_url: async (_run, action) => markComplete(action),
};

/** Runs an action's next step now (a job, the poll cron or a webhook). */
export function runAction(run: ActionRun, action: Action): Promise<unknown> {
  return perform(run, action, RUNNERS[action.action as ActionKind] ?? (async () => undefined));
}

/** Runs the action with this id, if it still exists and checks are on; the job's whole work. */
export async function runActionById(em: Em, services: SimcheckServices, actionId: number): Promise<void> {
  const run = actionRun(em, services);
  if (!run) return;
  const action = await em.findOne(SimcheckAction, { id: actionId });
  // A complete action runs again only when an admin asked for it (retry), as the original's did.
  if (!action || (action.complete && !action.retry)) return;
  await runAction(run, action);
}

/**
 * Sends each document of a converted submission whose upload requirement asks for a check to the
 * similarity service (the `simcheck_submit` job's whole work): one simcheck submission and one
 * upload action per document, then its first steps at once. A document already recorded for this
 * submission is not sent again, only moved on.
 */
export async function sendSubmissionForChecks(em: Em, services: SimcheckServices, taskId: number, submissionId: number): Promise<void> {
  const run = actionRun(em, services);
  if (!run) return;
  const task = await em.findOne(Task, { id: taskId }, { populate: ['taskDefinition', 'project'] });
  if (!task) return;
  const requirements = task.taskDefinition.uploadRequirements ?? [];
  const unitId = (task.project.unit as unknown as { id: number }).id;
  const files = await em.find(SubmissionFile, { submission: submissionId }, { orderBy: { idx: 'asc' } });
  for (const file of files) {
    if (!isChecked(requirements[file.idx])) continue;
    let [action] = await em.find(SimcheckAction, { action: 'upload_submission', params: { taskSubmissionId: submissionId, idx: file.idx } });
    if (!action) {
      const doc = em.create(SimcheckSubmission, { task: taskId, idx: file.idx, filename: file.originalFilename, status: 'created' } as never) as unknown as {
        id: number;
      };
      await em.flush();
      action = await createAction(em, {
        action: 'upload_submission',
        unit: unitId,
        description: `Upload ${file.originalFilename} for ${task.taskDefinition.abbreviation} (task ${taskId})`,
        params: { submissionId: doc.id, taskSubmissionId: submissionId, idx: file.idx, storagePath: file.storagePath },
      });
    }
    if (!action.complete && !action.errorCode) await runAction(run, action);
  }
}

/**
 * The current EULA, fetched from the service when none younger than a day is recorded (each
 * fetch is a `fetch_eula` action). Null when checks are off or the service never answered; a
 * stale copy serves while the service is away.
 */
export async function currentEula(em: Em, services: SimcheckServices): Promise<Eula | null> {
  const run = actionRun(em, services);
  if (!run) return null;
  const [last] = await em.find(SimcheckAction, { action: 'fetch_eula', complete: true }, { orderBy: { lastRun: 'desc', id: 'desc' }, limit: 1 });
  const known = last?.params?.html ? { version: String(last.params.version), html: String(last.params.html) } : null;
  if (known && last.lastRun && run.now.getTime() - last.lastRun.getTime() < EULA_FRESH_MS) return known;
  const action = await createAction(em, { action: 'fetch_eula', unit: null, description: 'Fetch similarity-check EULA' });
  await runAction(run, action);
  return action.complete ? { version: String(action.params.version), html: String(action.params.html) } : known;
}

/** Records the user's acceptance of the current EULA and the action that tells the service. */
export async function acceptCurrentEula(em: Em, services: SimcheckServices, userId: number): Promise<Action | null> {
  const eula = await currentEula(em, services);
  if (!eula) return null;
  await em.nativeUpdate(User, { id: userId }, { simcheckEulaAcceptedAt: services.clock.now(), simcheckEulaVersion: eula.version });
  return createAction(em, { action: 'accept_eula', unit: null, description: `Accept similarity-check EULA for user ${userId}`, params: { userId } });
}

export type ViewerUrl = { kind: 'ready'; url: string } | { kind: 'not_ready' } | { kind: 'failed'; message: string };

/**
 * For GET /api/tasks/{task_id}/similarities/{id}/viewer_url: a viewer URL made by the service for
 * the calling user, once the similarity's report is ready. `not_ready` answers the original's 404
 * "Similarity report is not yet ready to be viewed for this submission".
 */
export async function simcheckViewerUrl(
  em: Em,
  services: SimcheckServices,
  similarityId: number,
  viewer: { id: number; username: string },
): Promise<ViewerUrl> {
  const similarity = await em.findOne(TaskSimilarity, { id: similarityId, kind: 'simcheck' });
  const submissionId = refIdOrNull(similarity?.simcheckSubmission);
  const submission = submissionId ? await em.findOne(SimcheckSubmission, { id: submissionId }) : null;
  if (!submission?.remoteId || !READY_FOR_VIEWER.includes(submission.status)) return { kind: 'not_ready' };
  const run = actionRun(em, services);
  if (!run) return { kind: 'failed', message: 'Similarity checks are not enabled' };
  const unit = await em.execute<{ unit_id: number }[]>('select p.unit_id from tasks t join projects p on p.id = t.project_id where t.id = ?', [
    refId(submission.task),
  ]);
  const action = await createAction(em, {
    action: 'get_view_url',
    unit: unit[0]?.unit_id ?? null,
    description: `Get viewer url for ${submission.filename} (document ${submission.id}) for ${viewer.username}`,
    params: { submissionId: submission.id, viewerUserId: viewer.id },
  });
  let url: string | undefined;
  await perform(run, action, async (r, a) => {
    url = await call(r, a, 'fetch view url', () => r.client.viewerUrl(submission.remoteId!, viewer.username));
    if (url) markComplete(a);
  });
  return url ? { kind: 'ready', url } : { kind: 'failed', message: action.errorMessage ?? 'The similarity service did not answer' };
}

/**
 * For GET /api/tasks/{task_id}/similarities/{id}/contents/{idx}: the service's PDF report of a
 * simcheck similarity (part 0), or null when none was downloaded (the original's 404 "No details
 * to download…").
 */
export async function simcheckContents(em: Em, storage: Storage, similarityId: number, asAttachment = false): Promise<FileResult | null> {
  const similarity = await em.findOne(TaskSimilarity, { id: similarityId, kind: 'simcheck' });
  if (!similarity?.reportPath) return null;
  const file = await storedDownload(storage, similarity.reportPath);
  if (!file) return null;
  return { filename: `similarity-${similarity.id}.pdf`, contentType: 'application/pdf', data: file, size: file.size, asAttachment };
}
