import { z } from 'zod';
import type { ISimcheckAction } from '../../../schema/index.ts';
import type { Config } from '../../config.ts';
import { forbidden } from '../../trpc/errors.ts';
import { formBool, formInt, idField } from '../../trpc/fields.ts';

export const SIMCHECK_DISABLED = 'Similarity checks are not enabled';

/** Changes need the service; while it is off they are refused (reads answer null or what is recorded). */
export function requireSimcheckEnabled(config: Pick<Config, 'simcheckEnabled'>): void {
  if (!config.simcheckEnabled) throw forbidden(SIMCHECK_DISABLED);
}

export const eulaAcceptInput = z.object({ id: idField() });

export const actionsListInput = z.object({
  unit_id: idField().optional(),
  limit: formInt().pipe(z.number().int().min(0).max(1000)).default(50),
  offset: formInt().pipe(z.number().int().min(0)).default(0),
  show_complete: formBool().default(false),
});

export const actionRetryInput = z.object({
  id: idField(),
  action: z.string().trim().min(1),
  unit_id: idField().optional(),
});

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
    unit_id: a.unit ? (a.unit as unknown as { id: number }).id : null,
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
