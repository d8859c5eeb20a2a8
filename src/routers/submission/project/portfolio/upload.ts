import { route } from '../../../../trpc/route.ts';
import { checkUploadKind, notOfUploadKind } from '../../../../lib/upload-kinds.ts';
import { forbidden } from '../../../../trpc/errors.ts';
import { projectMutation } from '../../../../trpc/scopes/index.ts';
import { addPortfolioPart, partLabel } from '../../../../operations/submission/project/portfolio/portfolio-parts.ts';
import { portfolioPartOut, portfolioPartUploadInput } from './schemas.ts';

export const uploadPortfolioPart = projectMutation(portfolioPartUploadInput, {
  action: 'make_submission',
  refused: (id) => `Not authorised to submit portfolio for project '${id}'`,
})
  .meta(
    route(
      'POST',
      '/api/submission/project/{id}/portfolio',
      'Submission batches and portfolios',
      'Add a part to a portfolio (the learning summary report or other evidence)',
      {
        description:
          'Multipart `name`, `kind` (document, code or image) and `file0`, checked by content for its kind (document: a ' +
          "whole PDF; image: PNG, GIF, BMP, TIFF or JPEG; code: text with a known extension); 403 \"'<file>' is not a " +
          'valid <kind> file" otherwise. See docs/api/projects.md.',
        rest: { upload: {} },
      },
    ),
  )
  .output(portfolioPartOut)
  .mutation(async ({ ctx, input }) => {
    const file = input.file0;
    const check = await checkUploadKind(input.kind, file.path, file.filename);
    if (!check.ok) throw forbidden(notOfUploadKind(file.filename, input.kind));
    const { part, replaced } = await addPortfolioPart(ctx.em, ctx.storage, ctx.project.id, {
      name: input.name,
      kind: input.kind,
      filename: file.filename,
      path: file.path,
      detected: check.detected,
    });
    ctx.afterCommit(() => void Promise.all(replaced.map((key) => ctx.storage.delete(key))).catch(() => undefined));
    return { ...part, file_name: part.name, file_kind: part.kind, file_path: partLabel(part) };
  });
