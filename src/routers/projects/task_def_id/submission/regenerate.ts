// PUT /api/projects/{id}/task_def_id/{td}/submission (beyond-spec.md §4.3): build the PDF again.
import { route } from '../../../../trpc/route.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { getRefusal } from './download.ts';
import { regenerateSubmissionPdf as regenerate } from '../../../../operations/projects/task_def_id/submission/regenerate-pdf.ts';
import { regenerateOut, taskOnlyInput } from './schemas.ts';

export const regenerateSubmissionPdf = taskMutation(taskOnlyInput, { project: 'get_submission', refused: (_id, definition) => getRefusal(definition) })
  .meta(
    route(
      'PUT',
      '/api/projects/{id}/task_def_id/{task_definition_id}/submission',
      'Projects, submissions, comments',
      "Queue the task's submission PDF to be built again",
      {
        description:
          'Queues the latest upload\'s files for PDF assembly again (the task then shows `processing_pdf`): `{"result": ' +
          '"done"}`, or `{"result": "false"}` when nothing was ever uploaded. The student or the unit\'s staff.',
      },
    ),
  )
  .output(regenerateOut)
  .mutation(({ ctx }) => regenerate(ctx.em, ctx.jobs, ctx.taskId));
