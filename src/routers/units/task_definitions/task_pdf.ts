import { fileNotFoundPdf } from '../../../lib/placeholder-pdf.ts';
import { storageKeys } from '../../../storage/index.ts';
import { fileResult, type FileResult } from '../../../trpc/files.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { findTaskDefinition } from './operations.ts';
import { taskPdfInput } from './task_sheet_schemas.ts';

export const downloadTaskPdf = unitQuery(taskPdfInput, {
  action: 'get_unit',
  refused: 'Not authorised to download task details of unit',
})
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/units/{unit_id}/task_definitions/{task_def_id}/task_pdf',
      tags: ['Task definitions'],
      summary: "Download a task definition's task sheet",
      description:
        'The sheet as `application/pdf`, named `<UNIT CODE>-<ABBREVIATION>.pdf`, shown inline unless `as_attachment=true`. ' +
        'Without a sheet: the placeholder `FileNotFound.pdf`, status 200, as the original. Staff and enrolled students of the unit.',
    },
    rest: { file: true },
  })
  .output(fileResult().meta({ contentMediaType: 'application/pdf' }))
  .query(async ({ ctx, input }): Promise<FileResult> => {
    const definition = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_def_id);
    const sheet = await ctx.storage.open(storageKeys.taskSheet(definition.id));
    if (!sheet) return { filename: 'FileNotFound.pdf', contentType: 'application/pdf', data: fileNotFoundPdf(), asAttachment: input.as_attachment };
    return {
      filename: `${ctx.unit.code}-${definition.abbreviation}.pdf`,
      contentType: 'application/pdf',
      data: sheet.stream,
      size: sheet.size,
      asAttachment: input.as_attachment,
    };
  });
