// GET /api/projects/{id}/task_def_id/{td}/submission (beyond-spec.md §4.2): the task's submission PDF.
import { route } from '../../../../trpc/route.ts';
import { fileResult } from '../../../../lib/files.ts';
import { taskQuery } from '../../../../trpc/scopes/index.ts';
import { submissionPdf } from '../../../../operations/projects/task_def_id/submission/submission-pdf.ts';
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
  .query(({ ctx, input }) =>
    submissionPdf(ctx.em, ctx.storage, { taskId: ctx.taskId, projectId: ctx.project.id, definition: ctx.definition }, input.as_attachment, ctx.clock.now()),
  );
