// Operations on one student's task, named by its project and task definition. The builder loads
// both (404 when unknown; a definition of another unit is unknown), resolves the caller's role on
// the project through src/policy, and refuses with 403 and the operation's message unless the
// project and task tables allow the actions. Tasks are created by whatever first changes them, so
// the context carries the existing task's id, or null.
import type { z } from 'zod';
import { Project, Task, TaskDefinition, type IProject, type ITaskDefinition, type IUnit } from '../../../schema/index.ts';
import {
  canInProject,
  canInTask,
  canInUnit,
  roleInProject,
  roleInUnit,
  type ProjectAction,
  type ProjectRole,
  type TaskAction,
  type UnitAction,
} from '../../policy/index.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { userIdOf } from './project.ts';
import { CHANGE, idIn, message, READ, type Base, type Message } from './shared.ts';

export interface TaskScope {
  /** The project action the caller's role must allow (e.g. `make_submission`). */
  project?: ProjectAction;
  /** The task action the caller's role must allow (e.g. `request_extension`). */
  task?: TaskAction;
  /** A unit action the caller's role in the project's unit must allow too (e.g. `oversee_marking`: a convenor, not any staff). */
  unit?: UnitAction;
  /** The 403 message; given the project id and the definition (to name the task). */
  refused: Message<[projectId: number, definition: ITaskDefinition]>;
  /** Which input field names the project (default `id`; `project_id` on the comment routes). */
  projectField?: string;
  /** Which input field names the task definition (default `task_definition_id`). */
  definitionField?: string;
}

const UNKNOWN_PROJECT = 'Unable to find requested Project';
const UNKNOWN_DEFINITION = 'Unable to find requested Task definition';

export function scopeToTask<S extends z.ZodType>(base: Base, input: S, scope: TaskScope) {
  const projectField = scope.projectField ?? 'id';
  const definitionField = scope.definitionField ?? 'task_definition_id';
  return base.input(input).use(async ({ ctx, input, next }) => {
    const projectId = idIn(input, projectField);
    const project = (await ctx.em.findOne(Project, { id: projectId }, { populate: ['unit'] })) as IProject | null;
    if (!project) throw notFound(UNKNOWN_PROJECT);
    const unit = project.unit as unknown as IUnit;
    const definition = (await ctx.em.findOne(TaskDefinition, { id: idIn(input, definitionField), unit: unit.id })) as ITaskDefinition | null;
    if (!definition) throw notFound(UNKNOWN_DEFINITION);
    const projectRole = await roleInProject(ctx.em, ctx.user, { userId: userIdOf(project), unitId: unit.id });
    const allowed =
      (scope.project === undefined || canInProject(projectRole, scope.project, unit)) &&
      (scope.task === undefined || canInTask(projectRole, scope.task, unit)) &&
      (scope.unit === undefined || canInUnit(await roleInUnit(ctx.em, ctx.user, unit.id), scope.unit));
    if (!allowed) throw forbidden(message(scope.refused, projectId, definition));
    const task = await ctx.em.findOne(Task, { project: projectId, taskDefinition: definition.id }, { fields: ['id'] });
    return next({ ctx: { project, unit, definition, projectRole: projectRole as ProjectRole, taskId: task ? task.id : null } });
  });
}

/** A read of one student's task: `ctx.project`, `ctx.unit`, `ctx.definition`, `ctx.projectRole` and `ctx.taskId`. */
export const taskQuery = <S extends z.ZodType>(input: S, scope: TaskScope) => scopeToTask(READ, input, scope);

/** A change of one student's task, in one transaction. */
export const taskMutation = <S extends z.ZodType>(input: S, scope: TaskScope) => scopeToTask(CHANGE, input, scope);
