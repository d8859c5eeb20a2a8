// GET /api/projects/{id}/task_def_id/{td}/submission_details: whether the task's PDF is there or on its way.
import { route } from '../../../../trpc/route.ts';
import { db, timestamp } from '../../../../db/kysely.ts';
import { taskQuery } from '../../../../trpc/scopes/index.ts';
import { submissionState } from '../../../../operations/projects/task_def_id/submission/submission-files.ts';
import { submissionDetailsOut, taskOnlyInput } from '../submission/schemas.ts';

export const READ_REFUSAL = 'You do not have permission to read submissions for this project.';

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
  .query(async ({ ctx }) => {
    if (ctx.taskId === null || ctx.definition.uploadRequirements.length === 0) return { has_pdf: false, processing_pdf: false };
    const state = await submissionState(ctx.em, ctx.storage, ctx.taskId);
    const task = await db(ctx.em).selectFrom('tasks').select('submission_date').where('id', '=', ctx.taskId).executeTakeFirstOrThrow();
    const out: { has_pdf: boolean; submission_date?: string; processing_pdf: boolean } = { has_pdf: state.pdfKey !== null, processing_pdf: state.processing };
    if (task.submission_date !== null) out.submission_date = timestamp(task.submission_date).toISOString();
    return out;
  });
