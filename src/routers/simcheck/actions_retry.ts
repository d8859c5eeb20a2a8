import { z } from 'zod';
import { SimcheckAction } from '../../../schema/index.ts';
import { badRequest, forbidden } from '../../trpc/errors.ts';
import { findOr404 } from '../../trpc/lookup.ts';
import { actionRetryInput, requireSimcheckEnabled } from './schemas.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';

export const retrySimcheckAction = systemMutation(actionRetryInput, { action: 'admin_units', refused: 'Not authorised to retry similarity-check actions' })
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/simcheck_actions/{id}',
      tags: ['Similarity checks'],
      summary: 'Retry an action (Admin)',
      description:
        '`action=retry` marks the action for retry and queues it at once: `{message}`. A second retry before it has run is refused (403 "Retry in progress. Please wait."); ' +
        'any other `action` is 400 "Invalid action". 403 while checks are off.',
    },
    rest: { aliases: [{ method: 'PUT', path: '/api/tii_actions/{id}' }] },
  })
  .output(z.object({ message: z.string() }))
  .mutation(async ({ ctx, input }) => {
    const action = await findOr404(ctx.em, SimcheckAction, input.id);
    if (input.action !== 'retry') throw badRequest('Invalid action');
    requireSimcheckEnabled(ctx.config);
    if (action.retry) throw forbidden('Retry in progress. Please wait.');
    action.retry = true;
    await ctx.em.flush();
    await ctx.jobs.add('simcheck_action', { actionId: action.id }, { jobKey: `simcheck_action:${action.id}` });
    return { message: `Retry of action ${action.id} queued` };
  });
