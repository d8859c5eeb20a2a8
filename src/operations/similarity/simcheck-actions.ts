// Every call to the similarity-check service is made through an action row (simcheck_actions), so
// an admin sees what happened and a failed step can be retried, by the poll cron or by hand.
import { SimcheckAction, type ISimcheckAction } from '../../../schema/index.ts';
import { SimcheckError, simcheckClient, type SimcheckClient } from '../../adapters/simcheck.ts';
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import type { Storage } from '../../storage/index.ts';

export const ACTION_KINDS = [
  'fetch_eula',
  'accept_eula',
  'update_group',
  'upload_task_resources',
  'upload_submission',
  'delete_submission',
  'delete_group_attachment',
  'get_view_url',
] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** What running an action needs: the database, the service, stored files and the time. */
export interface ActionRun {
  em: Em;
  client: SimcheckClient;
  config: Config;
  storage: Storage;
  now: Date;
}

export function actionRun(em: Em, services: { config: Config; storage: Storage; clock: { now(): Date } }): ActionRun | null {
  const client = simcheckClient(services.config.simcheck);
  return client ? { em, client, config: services.config, storage: services.storage, now: services.clock.now() } : null;
}

const ERROR_MESSAGES: Record<string, string> = {
  no_user_with_accepted_eula: 'No user has accepted the similarity-check EULA',
  excessive_retries: 'Failed due to excessive retries',
  malformed_request: 'Request is malformed or missing required data',
  authentication_error: 'Authentication with the similarity service failed - adjust configuration',
  missing_submission: 'Submission not found by the similarity service',
  generation_failed: 'PDF failed to generate, status FAILED',
  invalid_submission_size_too_large: 'Invalid submission file size, Submission file must be <= to 100 MB',
  invalid_submission_size_empty: 'Invalid submission file size, Submission file must be > than 0 MB',
  submission_not_found_when_creating_similarity_report: 'Submission not found in creating similarity report',
  rate_limited: 'The similarity service is rate limited at the moment, we will try again later',
  service_not_available: 'The similarity service is not available at the moment, we will try again later',
};

/** Statuses the service answers for which this call has its own meaning. */
export type StatusCodes = { status: number; code?: string; message?: string }[];

type Action = ISimcheckAction;

export function log(action: Action, now: Date, message: string): void {
  action.log = [...(action.log ?? []), { date: now.toISOString(), message }];
}

export function fail(action: Action, now: Date, code: string, message?: string): void {
  action.errorCode = code;
  action.errorMessage = message ?? ERROR_MESSAGES[code] ?? code;
  action.complete = false;
  log(action, now, action.errorMessage);
}

/** Runs again by the poll cron; the count resets once a step makes progress. */
export function reschedule(action: Action, now: Date, resetRetries = true): void {
  if (resetRetries) {
    action.retries = 0;
    action.params = { ...action.params, progressAt: now.toISOString() };
  }
  action.retry = true;
}

export function markComplete(action: Action): void {
  action.retries = 0;
  action.retry = false;
  action.complete = true;
}

/**
 * The service failed for now: try again later, up to 48 times, and give up only once a whole
 * day has passed without progress (the original's policy).
 */
function retryLater(action: Action, now: Date): void {
  action.retries += 1;
  const since = new Date(String(action.params?.progressAt ?? action.createdAt.toISOString()));
  if (action.retries > 48 && now.getTime() - since.getTime() > 24 * 3600_000) {
    action.errorCode = 'excessive_retries';
    action.errorMessage = ERROR_MESSAGES.excessive_retries;
    action.retry = false;
  } else {
    action.retry = true;
  }
}

/**
 * Makes one call to the service on behalf of `action`, recording it; a refusal becomes the
 * action's error (retried later when the service was only unavailable). Undefined on failure.
 */
export async function call<T>(run: ActionRun, action: Action, description: string, fn: () => Promise<T>, codes: StatusCodes = []): Promise<T | undefined> {
  log(action, run.now, description);
  try {
    return await fn();
  } catch (error) {
    if (!(error instanceof SimcheckError)) throw error;
    const known = codes.find((c) => c.status === error.status);
    if (known) fail(action, run.now, known.code ?? 'custom_error', known.message);
    else if (error.status === 400) fail(action, run.now, 'malformed_request');
    else if (error.status === 401 || error.status === 403) fail(action, run.now, 'authentication_error');
    else if (error.status === 451) fail(action, run.now, 'no_user_with_accepted_eula');
    else if (error.status === 429) fail(action, run.now, 'rate_limited');
    else if (error.status === 0 || error.status >= 500) fail(action, run.now, 'service_not_available', error.status === 0 ? error.message : undefined);
    else fail(action, run.now, 'custom_error', error.message);
    if (error.status === 0 || error.status === 429 || error.status >= 500) retryLater(action, run.now);
    return undefined;
  }
}

/** A new action row, flushed, so a job can name it. */
export async function createAction(
  em: Em,
  fields: { action: ActionKind; unit: number | null; description: string; params?: Record<string, unknown> },
): Promise<Action> {
  const row = em.create(SimcheckAction, {
    action: fields.action,
    unit: fields.unit,
    description: fields.description,
    params: fields.params ?? {},
  } as never) as unknown as Action;
  await em.flush();
  return row;
}

/** Actions waiting to retry that have not run (or, never run, were not created) since `before`, oldest first. */
export async function actionsWaitingSince(em: Em, before: Date): Promise<Action[]> {
  return em.find(
    SimcheckAction,
    { retry: true, complete: false, $or: [{ lastRun: null, createdAt: { $lt: before } }, { lastRun: { $lt: before } }] },
    { orderBy: { id: 'asc' } },
  );
}

export type Runner = (run: ActionRun, action: Action) => Promise<unknown>;

/**
 * Runs an action's next step: an admin's retry clears the error first; the step's own calls
 * record their outcome. A step that throws (not a service refusal) is recorded, never lost.
 */
export async function perform(run: ActionRun, action: Action, runner: Runner): Promise<unknown> {
  if (action.retry && action.errorCode) {
    action.errorCode = null;
    action.errorMessage = null;
  }
  if (action.complete) action.log = [];
  log(action, run.now, `Started ${action.action}`);
  action.lastRun = run.now;
  action.retry = false;
  action.complete = false;
  let result: unknown;
  try {
    result = await runner(run, action);
    log(action, run.now, `${action.action} ended`);
  } catch (error) {
    fail(action, run.now, 'custom_error', (error as Error).message);
  }
  await run.em.flush();
  return result;
}
