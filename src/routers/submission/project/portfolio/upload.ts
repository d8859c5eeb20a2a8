import { route } from '../../../../trpc/route.ts';
import { projectMutation } from '../../../../trpc/scopes/index.ts';
import { uploadPortfolioPart as upload } from '../../../../operations/submission/project/portfolio/upload-portfolio-part.ts';
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
  .mutation(({ ctx, input }) => upload(ctx.em, { storage: ctx.storage, afterCommit: ctx.afterCommit }, ctx.project.id, input));
