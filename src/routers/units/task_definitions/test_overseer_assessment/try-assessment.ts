// POST .../{task_def_id}/test_overseer_assessment: the convenor tries the definition's automated
// assessment with their own files, submitted as a student's upload.
import { z } from 'zod';
import { NOT_ENABLED, prepareOverseerTrial } from '../../../../operations/units/task_definitions/overseer-trial.ts';
import { createCallerFactory, router } from '../../../../trpc/core.ts';
import { route } from '../../../../trpc/route.ts';
import { unitMutation } from '../../../../trpc/scopes/index.ts';
// The student's upload procedure (projects area), called as the student would.
import { uploadSubmission } from '../../../projects/task_def_id/submission/upload.ts';
import { updatedTaskOut } from '../../../projects/task_def_id/updated-task.ts';
import { overseerTrialInput } from './schemas.ts';

const submitAsStudent = createCallerFactory(router({ upload: uploadSubmission }));

export const testOverseerAssessment = unitMutation(overseerTrialInput, {
  action: 'add_task_def',
  refused: 'Not authorised to test overseer assessment of this unit',
})
  .meta(
    route(
      'POST',
      '/api/units/{unit_id}/task_definitions/{task_def_id}/test_overseer_assessment',
      'Task definitions',
      "Try a task definition's automated assessment with the caller's own files",
      {
        description:
          "The caller's files (multipart `file0`, `file1`, ...) are submitted to their own project in the unit and assessed; " +
          `\`{"status": "${NOT_ENABLED}"}\` with Overseer off. Unit Convenor or Admin. See docs/api/taskdefs.md.`,
        rest: { upload: {}, status: 200 },
      },
    ),
  )
  .output(z.union([updatedTaskOut, z.object({ status: z.literal(NOT_ENABLED) })]))
  .mutation(async ({ ctx, input }) => {
    const trial = await prepareOverseerTrial(ctx.em, ctx.storage, ctx.config, ctx.unit.id, input.task_def_id, ctx.user.id);
    if (trial === NOT_ENABLED) return { status: NOT_ENABLED } as const;
    // The submission is the student's upload itself, in this transaction (its own is a savepoint).
    const { unit_id: _unit, task_def_id: _definition, ...files } = input;
    return submitAsStudent(ctx).upload({ id: trial.projectId, task_definition_id: trial.definitionId, ...files });
  });
