// PUT /api/projects/{id}/task_def_id/{task_definition_id}/overseer_assessment/{oa_id}/trigger
// (behaviour.md §6 "Re-run"): runs an existing assessment of the task again.
import { z } from 'zod';
import { assessmentSetup, queueRun } from '../../../../operations/assessment/queue.ts';
import { db } from '../../../../db/kysely.ts';
import { idField } from '../../../../trpc/fields.ts';
import { forbidden, notFound } from '../../../../trpc/errors.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { taskIds } from '../schemas.ts';
import { sharingTaskIds } from '../submission/operations.ts';

const INT32_MAX = 2_147_483_647;

export const ALREADY_QUEUED = 'Your task is already queued for processing. Please wait until you receive a response before you resubmit.';

export const triggerOverseerAssessment = taskMutation(z.object({ ...taskIds, oa_id: idField() }), {
  project: 'get_submission',
  refused: (_id, definition) => `Not authorised to access automated assessment of task '${definition.name}'`,
})
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/projects/{id}/task_def_id/{task_definition_id}/overseer_assessment/{oa_id}/trigger',
      tags: ['Projects, submissions, comments'],
      summary: 'Run an automated assessment of the task again',
      description:
        "The student or the unit's staff. Queues assessment `oa_id` of this task (or its group submission) to run again with the same upload, " +
        'adds the "Automated Assessment Started" comment and answers `{message}`. 404 for an assessment of another task; 403 while it is ' +
        'still queued, when Overseer is not enabled, or when the definition is no longer set up for it (no image, no resources, assessment off).',
    },
  })
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
