import { z } from 'zod';
import { retrySimcheckAction as retryAction } from '../../operations/simcheck_actions/action-log.ts';
import { route } from '../../trpc/route.ts';
import { systemMutation } from '../../trpc/scopes/index.ts';
import { actionRetryInput } from './schemas.ts';

export const retrySimcheckAction = systemMutation(actionRetryInput, { action: 'admin_units', refused: 'Not authorised to retry similarity-check actions' })
  .meta(
    route('PUT', '/api/simcheck_actions/{id}', 'Similarity checks', 'Retry an action (Admin)', {
      description:
        '`action=retry` marks the action for retry and queues it at once: `{message}`. A second retry before it has run is refused ' +
        '(403 "Retry in progress. Please wait."); ' +
        'any other `action` is 400 "Invalid action". 403 while checks are off.',
      rest: { aliases: [{ method: 'PUT', path: '/api/tii_actions/{id}' }] },
    }),
  )
  .output(z.object({ message: z.string() }))
  .mutation(({ ctx, input }) => retryAction(ctx, input));
