// PUT /api/projects/{id}/task_def_id/{task_definition_id}/overseer_assessment/{oa_id}/trigger
// (behaviour.md §6 "Re-run"): runs an existing assessment of the task again.
import { route } from '../../../../trpc/route.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { rerunAssessment } from '../../../../operations/projects/task_def_id/overseer_assessment/rerun-assessment.ts';
import { triggerAssessmentInput, triggeredOut } from './schemas.ts';

export const triggerOverseerAssessment = taskMutation(triggerAssessmentInput, {
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
  .output(triggeredOut)
  .mutation(({ ctx, input }) =>
    rerunAssessment(
      ctx.em,
      { storage: ctx.storage, config: ctx.config, jobs: ctx.jobs, now: ctx.clock.now() },
      { taskId: ctx.taskId, definitionId: ctx.definition.id },
      input.oa_id,
    ),
  );
