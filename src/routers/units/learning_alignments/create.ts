import { canInUnit } from '../../../policy/index.ts';
import { badRequest, forbidden } from '../../../trpc/errors.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { CANNOT_CREATE_TASK_ALIGNMENT, CANNOT_CREATE_UNIT_ALIGNMENT, NOT_IN_UNIT, TAG } from './messages.ts';
import {
  authorizeOnProject,
  createAlignment,
  projectOfUnit,
  taskOfUnit,
  type AlignmentFields,
} from '../../../operations/units/learning_alignments/change-alignments.ts';
import { alignmentOut, createAlignmentInput, toAlignment } from './schemas.ts';

export const createAlignmentProcedure = unitMutation(createAlignmentInput, { action: 'get_unit', refused: NOT_IN_UNIT })
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/units/{unit_id}/learning_alignments',
      tags: [TAG],
      summary: 'Align a task definition with a learning outcome, for the unit or as a student',
      description:
        "With `project_id` (the spec's form) or `task_id` (the web client's), a student's self-assessment of that task, made by the student or staff of the unit; the task is made if the student has not touched it yet. " +
        "Without either, the unit's own alignment, made by the unit's Convenor or an Admin. The outcome and the definition must be the unit's (404); `rating` runs 1 to 5; a pair is aligned once for the unit and once per task (400).",
    },
  })
  .output(alignmentOut)
  .mutation(async ({ ctx, input }) => {
    let task: AlignmentFields['task'] = null;
    if (input.task_id !== undefined) {
      const found = await taskOfUnit(ctx.em, ctx.unit.id, input.task_id);
      if (input.project_id !== undefined && input.project_id !== found.project_id) throw badRequest('task_id is not a task of project_id');
      if (input.task_definition_id !== found.task_definition_id) throw badRequest('task_id is not a task of task_definition_id');
      const project = await projectOfUnit(ctx.em, ctx.unit.id, found.project_id);
      await authorizeOnProject(ctx.em, ctx.user, ctx.unit, project.user_id, 'make_submission', CANNOT_CREATE_TASK_ALIGNMENT);
      task = found.id;
    } else if (input.project_id !== undefined) {
      const project = await projectOfUnit(ctx.em, ctx.unit.id, input.project_id);
      await authorizeOnProject(ctx.em, ctx.user, ctx.unit, project.user_id, 'make_submission', CANNOT_CREATE_TASK_ALIGNMENT);
      task = { projectId: project.id, now: ctx.clock.now() };
    } else if (!canInUnit(ctx.unitRole, 'update')) {
      throw forbidden(CANNOT_CREATE_UNIT_ALIGNMENT);
    }
    return toAlignment(
      await createAlignment(ctx.em, ctx.unit.id, {
        outcomeId: input.learning_outcome_id,
        definitionId: input.task_definition_id,
        task,
        rating: input.rating,
        description: input.description,
      }),
    );
  });
