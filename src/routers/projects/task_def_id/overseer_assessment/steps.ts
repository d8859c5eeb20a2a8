// GET .../overseer_assessment/{oa_id}/steps and .../steps/{result_id} (docs/assessment-steps.md):
// an assessment's results per step; the student sees only what each step's show_* flags allow.
import { assessmentStepResults } from '../../../../operations/projects/task_def_id/overseer_assessment/step-results-view.ts';
import { canInTask } from '../../../../policy/index.ts';
import { route } from '../../../../trpc/route.ts';
import { taskQuery } from '../../../../trpc/scopes/index.ts';
import { assessmentStepInput, assessmentStepsInput, assessmentStepsOut } from './schemas.ts';

const refused = (_id: number, definition: { name: string }) => `Not authorised to access automated assessment of task '${definition.name}'`;

export const overseerAssessmentSteps = taskQuery(assessmentStepsInput, { project: 'get_submission', refused })
  .meta(
    route(
      'GET',
      '/api/projects/{id}/task_def_id/{task_definition_id}/overseer_assessment/{oa_id}/steps',
      'Projects, submissions, comments',
      "An automated assessment's result per step",
      {
        description:
          'Each step in run order: outcome, exit status, feedback, and stdout, stdin and expected output (64 KiB, with the sha256 of the whole). ' +
          "Staff see every text; the student only those the step's show_* flags allow. The student or the unit's staff.",
      },
    ),
  )
  .output(assessmentStepsOut)
  .query(({ ctx, input }) => assessmentStepResults(ctx.em, ctx.taskId, input.oa_id, canInTask(ctx.projectRole, 'see_hidden_step_output')));

export const overseerAssessmentStep = taskQuery(assessmentStepInput, { project: 'get_submission', refused })
  .meta(
    route(
      'GET',
      '/api/projects/{id}/task_def_id/{task_definition_id}/overseer_assessment/{oa_id}/steps/{result_id}',
      'Projects, submissions, comments',
      "One step's result in an automated assessment",
      { description: 'As `.../steps`, with only the result `result_id` in `steps` (404 when the assessment has no such result).' },
    ),
  )
  .output(assessmentStepsOut)
  .query(({ ctx, input }) => assessmentStepResults(ctx.em, ctx.taskId, input.oa_id, canInTask(ctx.projectRole, 'see_hidden_step_output'), input.result_id));
