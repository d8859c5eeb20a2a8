// POST .../{task_def_id}/test_overseer_assessment: the convenor tries the definition's automated
// assessment with their own files, submitted as a student's upload.
import { z } from 'zod';
import { NOT_ENABLED, prepareOverseerTrial, submitOverseerTrial } from '../../../../operations/units/task_definitions/overseer-trial.ts';
import { route } from '../../../../trpc/route.ts';
import { unitMutation } from '../../../../trpc/scopes/index.ts';
import { updatedTaskOut } from '../../../projects/task_def_id/schemas.ts';
import { uploadInput } from '../../../projects/task_def_id/submission/schemas.ts';
import { overseerTrialInput } from './schemas.ts';

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
    // The submission is the caller's own upload to their project, with the student's upload's checks.
    // The files are read by the student's upload's own input schema (a mistake there is 400 as before).
    const { unit_id: _unit, task_def_id: _definition, ...files } = input;
    const upload = uploadInput.parse({ id: trial.projectId, task_definition_id: trial.definitionId, ...files });
    const services = { storage: ctx.storage, config: ctx.config, jobs: ctx.jobs, afterCommit: ctx.afterCommit, now: ctx.clock.now() };
    return submitOverseerTrial(ctx.em, services, ctx.user.id, trial, upload);
  });
