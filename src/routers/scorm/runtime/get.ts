import { z } from 'zod';
import { fileResult } from '../../../lib/files.ts';
import { runtimeFile } from '../../../operations/scorm/runtime/runtime-files.ts';
import { publicProcedure } from '../../../trpc/core.ts';
import { route } from '../../../trpc/route.ts';

export const scormRuntimeFile = publicProcedure
  .meta(
    route('GET', '/api/scorm/runtime/{file}', 'SCORM', "One of the SCORM player's scripts (scorm-again's builds, the player's own)", {
      protect: false,
      description:
        'A fixed list of files (404 for any other name): `scorm2004.min.js`, `scorm12.min.js`, `cross-frame-lms.min.js`, `cross-frame-api.min.js`, ' +
        '`cross-frame-api.js`, `player.js`, `player.css`. Kept a year when `v` names the current version, else five minutes.',
      rest: { file: true },
    }),
  )
  .input(z.object({ file: z.string().max(64), v: z.string().max(64).optional() }))
  .output(fileResult().meta({ contentMediaType: 'text/javascript' }))
  .query(({ input }) => runtimeFile(input.file, input.v));
