import { gradeRequired, parseGrade, qualityPtsError } from '../../../domain/task-rules.ts';
import { PASSING, statusForTrigger } from '../../../domain/task-status.ts';
import { badRequest, forbidden } from '../../../trpc/errors.ts';
import { taskMutation } from '../../../trpc/scoped.ts';
import { changeTask, type ChangeRequest } from '../../../workflow/change-task.ts';
import { ensureTask } from '../../../workflow/tasks.ts';
import { updateTaskInput } from './schemas.ts';
import { loadUpdatedTask, updatedTaskOut } from './updated-task.ts';

export const updateTask = taskMutation(updateTaskInput, { project: 'make_submission', refused: (id) => `Couldn't find Task with id=${id}` })
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/projects/{id}/task_def_id/{task_definition_id}',
      tags: ['Projects, submissions, comments'],
      summary: "Change a task's status, grade, quality points or portfolio inclusion",
      description:
        "The student or staff of the unit. `trigger` names the new status (any of the original's aliases). Anyone with a role on the task may set not_started, working_on_it and need_help, and hand work in (ready_for_feedback, only for definitions without upload requirements); only staff assess (complete, discuss, demonstrate, fix_and_resubmit, redo, feedback_exceeded, fail, time_exceeded). A student's change of a closed task, or of a staff-assigned status on a restricted definition, changes nothing (the latter answers 403). A graded definition needs `grade` when assessed as complete, discuss or demonstrate; only staff grade. Group tasks change for every member. Answers the task after the change.",
    },
  })
  .output(updatedTaskOut)
  .mutation(async ({ ctx, input }) => {
    const { definition } = ctx;
    const staff = ctx.projectRole === 'Tutor';
    const now = ctx.clock.now();
    const taskId = ctx.taskId ?? (await ensureTask(ctx.em, ctx.project.id, definition.id, now));
    const request: ChangeRequest = { actor: { userId: ctx.user.id, role: ctx.projectRole }, includeInPortfolio: input.include_in_portfolio };

    if (input.trigger !== undefined) {
      const target = statusForTrigger(input.trigger);
      if (!target) throw badRequest(`Unknown trigger '${input.trigger}'.`);
      if (target === 'ready_for_feedback' && definition.uploadRequirements.length > 0) {
        throw forbidden('Cannot set this task status to ready to mark without uploading documents.');
      }
      if (staff && gradeRequired(target, definition) && input.grade === undefined) {
        throw forbidden(`No grade was supplied for a graded task (task id ${taskId})`);
      }
      if (staff && input.quality_pts !== undefined && definition.maxQualityPts > 0 && PASSING.has(target)) {
        const error = qualityPtsError(input.quality_pts, definition.maxQualityPts);
        if (error) throw badRequest(error);
      }
      request.change = { kind: 'trigger', target, qualityPts: input.quality_pts };
    }
    if (input.grade !== undefined) {
      if (!definition.isGraded) throw forbidden(`Grade was supplied for a non-graded task (task id ${taskId})`);
      // The original let a student grade their own task; only staff may.
      if (!staff) throw forbidden('Only staff can grade a task.');
      const grade = parseGrade(input.grade);
      if (!grade.ok) throw forbidden(grade.error);
      request.grade = grade.grade;
    }

    let result = await changeTask(ctx.em, taskId, request, now);
    if (!result.applied) {
      if (definition.restrictStatusUpdates) throw forbidden('This task can only be updated by your tutor.');
      // As in the original, a refused status change is silent; the other fields still apply.
      result = await changeTask(ctx.em, taskId, { ...request, change: undefined }, now);
    }
    return loadUpdatedTask(ctx.em, taskId, ctx.user.id, result.taskIds);
  });
