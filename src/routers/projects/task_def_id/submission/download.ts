// GET /api/projects/{id}/task_def_id/{td}/submission (beyond-spec.md §4.2): the task's submission PDF.
import { route } from '../../../../trpc/route.ts';
import { awaitingProcessingPdf, fileNotFoundPdf } from '../../../../lib/placeholder-pdf.ts';
import { fileResult, type FileResult } from '../../../../trpc/files.ts';
import { taskQuery } from '../../../../trpc/scopes/index.ts';
import { ensureTask } from '../../../../operations/tasks/tasks.ts';
import { submissionState } from '../../../../operations/projects/task_def_id/submission/submission-files.ts';
import { downloadInput } from './schemas.ts';

export const getRefusal = (definition: { name: string }) => `Not authorised to get task '${definition.name}'`;

export const downloadSubmission = taskQuery(downloadInput, { project: 'get_submission', refused: (_id, definition) => getRefusal(definition) })
  .meta(
    route('GET', '/api/projects/{id}/task_def_id/{task_definition_id}/submission', 'Projects, submissions, comments', "Download a task's submission PDF", {
      description:
        'The PDF built from the latest upload (`application/pdf`, `<ABBREVIATION>.pdf`), shown inline unless ' +
        '`as_attachment=true`. See docs/api/projects.md.',
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'application/pdf' }))
  .query(async ({ ctx, input }): Promise<FileResult> => {
    // As the original, reading a task creates its row.
    const taskId = ctx.taskId ?? (await ensureTask(ctx.em, ctx.project.id, ctx.definition.id, ctx.clock.now()));
    const state = await submissionState(ctx.em, ctx.storage, taskId);
    const placeholder = (filename: string, data: Buffer): FileResult => ({ filename, contentType: 'application/pdf', data, asAttachment: input.as_attachment });
    if (state.processing) return placeholder('AwaitingProcessing.pdf', awaitingProcessingPdf());
    const pdf = state.pdfKey ? await ctx.storage.open(state.pdfKey) : null;
    if (!pdf) return placeholder('FileNotFound.pdf', fileNotFoundPdf());
    return {
      filename: `${ctx.definition.abbreviation}.pdf`,
      contentType: 'application/pdf',
      data: pdf.stream,
      size: pdf.size,
      asAttachment: input.as_attachment,
    };
  });
