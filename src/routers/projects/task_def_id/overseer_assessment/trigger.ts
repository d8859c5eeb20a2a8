// PUT /api/projects/{id}/task_def_id/{task_definition_id}/overseer_assessment/{oa_id}/trigger
// (behaviour.md §6 "Re-run"): runs an existing assessment of the task again.
import { route } from '../../../../trpc/route.ts';
import { z } from 'zod';
import { assessmentSetup, queueRun } from '../../../../operations/assessment/queue.ts';
import { db } from '../../../../db/kysely.ts';
import { idField } from '../../../../trpc/fields.ts';
import { forbidden, notFound } from '../../../../trpc/errors.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { taskIds } from '../schemas.ts';
import { sharingTaskIds } from '../../../../operations/projects/task_def_id/submission/submission-files.ts';

const INT32_MAX = 2_147_483_647;

export const ALREADY_QUEUED = 'Your task is already queued for processing. Please wait until you receive a response before you resubmit.';

export const triggerOverseerAssessment = taskMutation(z.object({ ...taskIds, oa_id: idField() }), {
  project: 'get_submission',
  refused: (_id, definition) => `Not authorised to access automated assessment of task '${definition.name}'`,
})
  .meta(
    route(
      'PUT',
      '/api/projects/{id}/task_def_id/{task_definition_id}/overseer_assessment/{oa_id}/trigger',
      'Projects, submissions, comments',
      'Run an automated assessment of the task again',
      {
        description: "The student or the unit's staff. See docs/api/projects.md.",
      },
    ),
  )
  .output(z.object({ message: z.string() }))
  .mutation(async ({ ctx, input }) => {
    // An id beyond the column's range names no record (and must not reach the database as one).
    if (ctx.taskId === null || input.oa_id > INT32_MAX) throw notFound('Unable to find requested automated assessment');
    const record = await db(ctx.em)
      .selectFrom('overseer_assessments')
      .select(['id', 'status'])
      .where('id', '=', input.oa_id)
      .where('task_id', 'in', await sharingTaskIds(ctx.em, ctx.taskId))
      .forUpdate()
      .executeTakeFirst();
    if (!record) throw notFound('Unable to find requested automated assessment');
    const setup = await assessmentSetup(ctx.em, ctx.storage, ctx.config, ctx.definition.id);
    if ('off' in setup) throw forbidden(setup.off);
    if (record.status === 'queued' || record.status === 'pre_queued') throw forbidden(ALREADY_QUEUED);
    await queueRun(ctx.em, ctx.jobs, record.id, ctx.clock.now());
    return { message: 'Automated assessment queued' };
  });
