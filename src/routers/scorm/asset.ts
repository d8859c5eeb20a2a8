import { openScormAsset } from '../../operations/scorm/serve-asset.ts';
import { fileResult } from '../../lib/files.ts';
import { publicProcedure } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';
import { scormAssetInput } from './schemas.ts';

// Public: the credentials are the SCORM token in the path (a package's pages cannot send headers
// with the requests their own <script src> and <img> make); the operation checks it.
export const scormAsset = publicProcedure
  .meta(
    route('GET', '/api/scorm/{task_def_id}/{username}/{scorm_token}/{file_path}', 'SCORM', "Serve one file of a task definition's SCORM package", {
      protect: false,
      description:
        '`file_path` is the rest of the path (slashes included). `scorm_token` comes from `GET /api/auth/scorm` and must be the ' +
        "user's; the user must be able to read the unit. Answers the file with the type of its extension, `Cache-Control: no-store` and " +
        '`Content-Security-Policy: sandbox …` (HTML gets the SCORM bridge script); 404 otherwise. See docs/online-tests.md.',
      rest: { file: true, tail: 'file_path', errors: [404] },
    }),
  )
  .input(scormAssetInput)
  .output(fileResult())
  .query(({ ctx, input }) =>
    openScormAsset(
      ctx.em,
      ctx.storage,
      { taskDefId: input.task_def_id, username: input.username, token: input.scorm_token, filePath: input.file_path },
      ctx.clock.now(),
    ),
  );
