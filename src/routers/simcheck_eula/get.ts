import { z } from 'zod';
import { currentEula } from '../../operations/similarity/simcheck.ts';
import { authedProcedure } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';

export const getSimcheckEula = authedProcedure
  .meta(
    route('GET', '/api/simcheck_eula', 'Similarity checks', "The similarity service's current end-user licence agreement", {
      description:
        'The agreement as an HTML string (JSON), fetched from the service at most once a day; JSON null while checks are off or when ' +
        'the service never answered. ' +
        'Any signed-in user.',
      rest: { aliases: [{ method: 'GET', path: '/api/tii_eula' }] },
    }),
  )
  .input(z.object({}))
  .output(z.string().nullable())
  .query(async ({ ctx }) => (await currentEula(ctx.em, ctx))?.html ?? null);
