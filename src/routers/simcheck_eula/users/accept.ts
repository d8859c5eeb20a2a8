import { z } from 'zod';
import { acceptEula } from '../../../operations/simcheck_eula/accept-eula.ts';
import { route } from '../../../trpc/route.ts';
import { userMutation } from '../../../trpc/scopes/index.ts';
import { eulaAcceptInput } from '../schemas.ts';

export const acceptSimcheckEula = userMutation(eulaAcceptInput, {
  refused: 'You are not authorised to accept the EULA on behalf of another user',
})
  .meta(
    route('PUT', '/api/simcheck_eula/users/{id}/accept', 'Similarity checks', 'Accept the current agreement (the user themselves)', {
      description:
        'Records the version and time on the caller (`accepted_tii_eula` becomes true) and queues telling the service. Answers the id ' +
        'of the queued action as a JSON string. ' +
        'Only for oneself (403 "You are not authorised to accept the EULA on behalf of another user"); 403 while checks are off or ' +
        'when the agreement cannot be fetched.',
      rest: { aliases: [{ method: 'PUT', path: '/api/tii_eula/users/{id}/accept' }] },
    }),
  )
  .output(z.string())
  .mutation(({ ctx }) => acceptEula(ctx, ctx.user.id));
