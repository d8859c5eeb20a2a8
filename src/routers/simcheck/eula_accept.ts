import { z } from 'zod';
import { acceptCurrentEula } from '../../similarity/simcheck.ts';
import { forbidden } from '../../trpc/errors.ts';
import { eulaAcceptInput, requireSimcheckEnabled } from './schemas.ts';
import { userMutation } from '../../trpc/scopes/index.ts';

export const acceptSimcheckEula = userMutation(eulaAcceptInput, {
  refused: 'You are not authorised to accept the EULA on behalf of another user',
})
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/simcheck_eula/users/{id}/accept',
      tags: ['Similarity checks'],
      summary: 'Accept the current agreement (the user themselves)',
      description:
        'Records the version and time on the caller (`accepted_tii_eula` becomes true) and queues telling the service. Answers the id of the queued action as a JSON string. ' +
        'Only for oneself (403 "You are not authorised to accept the EULA on behalf of another user"); 403 while checks are off or when the agreement cannot be fetched.',
    },
    rest: { aliases: [{ method: 'PUT', path: '/api/tii_eula/users/{id}/accept' }] },
  })
  .output(z.string())
  .mutation(async ({ ctx }) => {
    requireSimcheckEnabled(ctx.config);
    const action = await acceptCurrentEula(ctx.em, ctx, ctx.user.id);
    if (!action) throw forbidden('The similarity-check EULA is not available at the moment; please try again later');
    await ctx.jobs.add('simcheck_action', { actionId: action.id }, { jobKey: `simcheck_action:${action.id}` });
    return String(action.id);
  });
