// PUT /api/projects/{id}/task_def_id/{td}/submission (beyond-spec.md §4.3): build the PDF again.
import { route } from '../../../../trpc/route.ts';
import { db } from '../../../../db/kysely.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { getRefusal } from './download.ts';
import { filesEntries, sharingTaskIds } from '../../../../operations/projects/task_def_id/submission/submission-files.ts';
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
  .mutation(async ({ ctx }) => {
    if (ctx.taskId === null) return { result: 'false' as const };
    const [entry] = await filesEntries(ctx.em, await sharingTaskIds(ctx.em, ctx.taskId), 1);
    if (!entry) return { result: 'false' as const };
    await db(ctx.em).updateTable('task_submissions').set({ processing: true }).where('id', '=', entry.id).execute();
    await ctx.jobs.add('accept_submission', { taskId: entry.taskId, submissionId: entry.id }, { jobKey: `accept_submission:${entry.id}` });
    return { result: 'done' as const };
  });
