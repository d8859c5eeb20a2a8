// The log of calls to the similarity service, as administrators see it, and retrying one.
import { z } from 'zod';
import { SimcheckAction, type ISimcheckAction } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import type { Em } from '../../db/orm.ts';
import { refIdOrNull } from '../../db/refs.ts';
import type { JobQueue } from '../../db/jobs.ts';
import { requireSimcheckEnabled } from '../similarity/enabled.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';

/** The spec's fields (id, unit_id, action, complete, updated_at) and the ones the web client's admin log reads. */
export const actionOut = z.object({
  id: z.number().int(),
  unit_id: z.number().int().nullable(),
  action: z.string(),
  type: z.string(),
  description: z.string().nullable(),
  complete: z.boolean(),
  retries: z.number().int(),
  retry: z.boolean(),
  last_run: z.string().nullable(),
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
  log: z.array(z.unknown()),
  updated_at: z.string(),
});
export type ActionOut = z.infer<typeof actionOut>;

export function toAction(a: ISimcheckAction): ActionOut {
  return {
    id: a.id,
    unit_id: refIdOrNull(a.unit),
    action: a.action,
    type: a.action,
    description: a.description ?? null,
    complete: a.complete,
    retries: a.retries,
    retry: a.retry,
    last_run: a.lastRun ? a.lastRun.toISOString() : null,
    error_code: a.errorCode ?? null,
    error_message: a.errorMessage ?? null,
    log: a.log ?? [],
    updated_at: a.updatedAt.toISOString(),
  };
}

/** The actions, latest change first: incomplete ones unless `show_complete`, one unit's with `unit_id`. */
export async function listSimcheckActions(em: Em, input: { unit_id?: number; limit: number; offset: number; show_complete: boolean }): Promise<ActionOut[]> {
  const where = {
    ...(input.unit_id !== undefined ? { unit: input.unit_id } : {}),
    ...(input.show_complete ? {} : { complete: false }),
  };
  const rows = await em.find(SimcheckAction, where, { orderBy: { updatedAt: 'desc', id: 'desc' }, limit: input.limit, offset: input.offset });
  return rows.map(toAction);
}

/** `action=retry`: marks action `id` for retry and queues it at once; a second retry before it has run is refused. */
export async function retrySimcheckAction(
  services: { em: Em; jobs: JobQueue; config: Pick<Config, 'simcheckEnabled'> },
  input: { id: number; action: string },
): Promise<{ message: string }> {
  const { em, jobs } = services;
  const action = await em.findOne(SimcheckAction, { id: input.id });
  if (!action) throw notFound('Unable to find requested Simcheck Action');
  if (input.action !== 'retry') throw badRequest('Invalid action');
  requireSimcheckEnabled(services.config);
  if (action.retry) throw forbidden('Retry in progress. Please wait.');
  action.retry = true;
  await em.flush();
  await jobs.add('simcheck_action', { actionId: action.id }, { jobKey: `simcheck_action:${action.id}` });
  return { message: `Retry of action ${action.id} queued` };
}
