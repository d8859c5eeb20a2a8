// GET /api/projects/{id}/task_def_id/{td}/submission_details: whether the task's PDF is there or on its way.
import { route } from '../../../../trpc/route.ts';
import { taskQuery } from '../../../../trpc/scopes/index.ts';
import { submissionDetails as details } from '../../../../operations/projects/task_def_id/submission_details/submission-details.ts';
import { READ_REFUSAL, submissionDetailsOut, taskOnlyInput } from './schemas.ts';

export const submissionDetails = taskQuery(taskOnlyInput, { project: 'get_submission', refused: READ_REFUSAL })
  .meta(
    route(
      'GET',
      '/api/projects/{id}/task_def_id/{task_definition_id}/submission_details',
      'Projects, submissions, comments',
      "A task's submission: date, PDF ready, PDF being built",
      {
        description:
          '`has_pdf` is true once the PDF of the latest upload is stored (and no newer upload waits); `processing_pdf` ' +
          'while uploaded files wait for their PDF (for group work, the latest upload of any member). See ' +
          'docs/api/projects.md.',
      },
    ),
  )
  .output(submissionDetailsOut)
  .query(({ ctx }) => details(ctx.em, ctx.storage, ctx.taskId, ctx.definition.uploadRequirements.length > 0));
