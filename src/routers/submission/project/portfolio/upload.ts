import { checkUploadKind, notOfUploadKind } from '../../../../lib/upload-kinds.ts';
import { forbidden } from '../../../../trpc/errors.ts';
import { projectMutation } from '../../../../trpc/scopes/index.ts';
import { addPortfolioPart, partLabel } from '../../../../operations/submission/project/portfolio/portfolio-parts.ts';
import { portfolioPartOut, portfolioPartUploadInput } from './schemas.ts';

export const uploadPortfolioPart = projectMutation(portfolioPartUploadInput, {
  action: 'make_submission',
  refused: (id) => `Not authorised to submit portfolio for project '${id}'`,
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/submission/project/{id}/portfolio',
      tags: ['Submission batches and portfolios'],
      summary: 'Add a part to a portfolio (the learning summary report or other evidence)',
      description:
        'Multipart `name`, `kind` (document, code or image) and `file0`, checked by content for its kind (document: a whole PDF; image: PNG, GIF, BMP, ' +
        'TIFF or JPEG; code: text with a known extension); 403 "\'<file>\' is not a valid <kind> file" otherwise. `name` `LearningSummaryReport` with kind ' +
        'document is the learning summary report: always part 0 (replacing an earlier one), and the project no longer uses the draft summary. Other ' +
        'parts take the next index from 1 and are listed under their file name. Answers 201 `{kind, name, idx}` (what the web client reads, as ' +
        "`portfolio_files` lists it) with the spec's `{file_name, file_kind, file_path}`. The owning student or staff of the unit.",
    },
    rest: { upload: {} },
  })
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
