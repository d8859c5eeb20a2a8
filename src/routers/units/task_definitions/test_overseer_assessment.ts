// POST /api/units/{unit_id}/task_definitions/{task_def_id}/test_overseer_assessment (behaviour.md §6,
// last bullet): the convenor tries the definition's automated assessment with their own files.
import { z } from 'zod';
import { assessmentSetup } from '../../../assessment/queue.ts';
import { db } from '../../../db/kysely.ts';
import { forbidden } from '../../../trpc/errors.ts';
import { createCallerFactory, router } from '../../../trpc/core.ts';
import { idField } from '../../../trpc/fields.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { enrolProjects } from '../../../operations/projects/enrol-projects.ts';
import { uploadSubmission } from '../../projects/task_def_id/submission/upload.ts';
import { updatedTaskOut } from '../../../operations/projects/task_def_id/load-updated-task.ts';
import { findTaskDefinition } from './operations.ts';

export const NOT_ENABLED = 'Overseer is not enabled';

const submitAsStudent = createCallerFactory(router({ upload: uploadSubmission }));

export const testOverseerAssessment = unitMutation(
  z
    .object({ unit_id: idField(), task_def_id: idField() })
    .catchall(z.unknown().meta({ type: 'string', format: 'binary', description: "One file per upload requirement, under the requirement's `key`" })),
  { action: 'add_task_def', refused: 'Not authorised to test overseer assessment of this unit' },
)
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/units/{unit_id}/task_definitions/{task_def_id}/test_overseer_assessment',
      tags: ['Task definitions'],
      summary: "Try a task definition's automated assessment with the caller's own files",
      description:
        'Unit Convenor or Admin. Multipart `file0`, `file1`, ... as for a submission. The caller gets a project in the unit (enrolled on the first ' +
        'campus) if they have none, the files are submitted to it as a student would, and the assessment is queued. Answers 200 with the task ' +
        `(its \`status\` among it). With Overseer off it answers \`{"status": "${NOT_ENABLED}"}\`; a definition not set up for assessment (no image, ` +
        'no assessment resources, assessment off) is 403.',
    },
    rest: { upload: {}, status: 200 },
  })
  .output(z.union([updatedTaskOut, z.object({ status: z.literal(NOT_ENABLED) })]))
  .mutation(async ({ ctx, input }) => {
    if (!ctx.config.overseerEnabled) return { status: NOT_ENABLED } as const;
    const definition = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_def_id);
    const setup = await assessmentSetup(ctx.em, ctx.storage, ctx.config, definition.id);
    if ('off' in setup) throw forbidden(setup.off);
    const campus = await db(ctx.em).selectFrom('campuses').select('id').orderBy('id').executeTakeFirst();
    const [{ projectId }] = await enrolProjects(ctx.em, ctx.unit.id, [{ userId: ctx.user.id, campusId: campus?.id ?? null }]);
    // The submission is the student's upload itself, in this transaction (its own is a savepoint).
    const { unit_id: _unit, task_def_id: _definition, ...files } = input;
    return submitAsStudent(ctx).upload({ id: projectId, task_definition_id: definition.id, ...files });
  });
