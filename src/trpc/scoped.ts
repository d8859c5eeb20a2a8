// Procedure builders for operations inside a unit, on a project or on a student's task. Each loads the record the
// input names (404 when there is none), resolves the caller's role there through src/policy, and
// refuses with 403 and the operation's message unless the role's table allows the action; then it
// puts the record and the role in the context. No procedure spells out a role itself.
import type { z } from 'zod';
import { Project, Task, TaskDefinition, Unit, type IProject, type ITaskDefinition, type IUnit } from '../../schema/index.ts';
import {
  can,
  canInProject,
  canInTask,
  canInUnit,
  roleInProject,
  roleInUnit,
  type ProjectAction,
  type ProjectRole,
  type SystemAction,
  type TaskAction,
  type UnitAction,
  type UnitRoleName,
} from '../policy/index.ts';
import { authedMutation, authedProcedure } from './core.ts';
import { forbidden, notFound } from './errors.ts';

// The record, when loaded, lets a message name it (e.g. by the unit's code).
type Refusal = string | ((id: number, unit?: IUnit) => string);
const refusal = (message: Refusal, id: number, unit?: IUnit) => (typeof message === 'function' ? message(id, unit) : message);

export interface UnitScope {
  /** The unit's action the caller's role must allow. */
  action: UnitAction;
  /** The 403 message, e.g. `(id) => \`Couldn't find Unit with id=${id}\``. */
  refused: Refusal;
  /** Which input field names the unit (default `unit_id`; `id` on /api/units/{id}). */
  field?: string;
  /** A system permission that allows the operation whatever the unit role (e.g. `admin_units`). */
  orSystem?: SystemAction;
  /** Where an unknown unit is refused with 403 instead of 404, as the original does on some routes. */
  unknownIsRefused?: boolean;
}

function idIn(input: unknown, field: string): number {
  return (input as Record<string, number>)[field];
}

const UNKNOWN_UNIT = 'Unable to find requested Unit';

// authedMutation is authedProcedure inside a transaction: the same context, so one builder serves both.
type Base = typeof authedProcedure;

function scopeToUnit<S extends z.ZodType>(base: Base, input: S, scope: UnitScope) {
  const field = scope.field ?? 'unit_id';
  return base.input(input).use(async ({ ctx, input, next }) => {
    const id = idIn(input, field);
    const unit = await ctx.em.findOne(Unit, { id });
    if (!unit) throw scope.unknownIsRefused ? forbidden(refusal(scope.refused, id)) : notFound(UNKNOWN_UNIT);
    const unitRole = await roleInUnit(ctx.em, ctx.user, id);
    const allowed = canInUnit(unitRole, scope.action) || (scope.orSystem !== undefined && can(ctx.user, scope.orSystem));
    if (!allowed) throw forbidden(refusal(scope.refused, id, unit as IUnit));
    return next({ ctx: { unit: unit as IUnit, unitRole: unitRole as UnitRoleName | null } });
  });
}

/** A read inside one unit: `ctx.unit` (the entity) and `ctx.unitRole`. */
export const unitQuery = <S extends z.ZodType>(input: S, scope: UnitScope) => scopeToUnit(authedProcedure, input, scope);

/** A change inside one unit, in one transaction; the unit is loaded inside it. */
export const unitMutation = <S extends z.ZodType>(input: S, scope: UnitScope) => scopeToUnit(authedMutation as Base, input, scope);

export interface ProjectScope {
  action: ProjectAction;
  refused: Refusal;
  /** Which input field names the project (default `id`). */
  field?: string;
  unknownIsRefused?: boolean;
}

const UNKNOWN_PROJECT = 'Unable to find requested Project';

function scopeToProject<S extends z.ZodType>(base: Base, input: S, scope: ProjectScope) {
  const field = scope.field ?? 'id';
  return base.input(input).use(async ({ ctx, input, next }) => {
    const id = idIn(input, field);
    const project = await ctx.em.findOne(Project, { id }, { populate: ['unit'] });
    if (!project) throw scope.unknownIsRefused ? forbidden(refusal(scope.refused, id)) : notFound(UNKNOWN_PROJECT);
    const unit = project.unit as unknown as IUnit;
    const projectRole = await roleInProject(ctx.em, ctx.user, { userId: (project.user as unknown as { id: number }).id, unitId: unit.id });
    if (!canInProject(projectRole, scope.action, unit)) throw forbidden(refusal(scope.refused, id));
    return next({ ctx: { project: project as IProject, unit, projectRole: projectRole as ProjectRole } });
  });
}

/** A read of one project: `ctx.project`, its `ctx.unit` and `ctx.projectRole`. */
export const projectQuery = <S extends z.ZodType>(input: S, scope: ProjectScope) => scopeToProject(authedProcedure, input, scope);

/** A change of one project, in one transaction. */
export const projectMutation = <S extends z.ZodType>(input: S, scope: ProjectScope) => scopeToProject(authedMutation as Base, input, scope);

export interface TaskScope {
  /** The project action the caller's role must allow (e.g. `make_submission`). */
  project?: ProjectAction;
  /** The task action the caller's role must allow (e.g. `request_extension`). */
  task?: TaskAction;
  /** The 403 message; given the project id and the definition (to name the task). */
  refused: string | ((projectId: number, definition: ITaskDefinition) => string);
  /** Which input field names the project (default `id`; `project_id` on the comment routes). */
  projectField?: string;
  /** Which input field names the task definition (default `task_definition_id`). */
  definitionField?: string;
}

const UNKNOWN_DEFINITION = 'Unable to find requested Task definition';

/**
 * Scopes to one student's task, named by its project and task definition. A definition of
 * another unit is unknown (404). Puts `project`, `unit`, `definition`, `projectRole` and `taskId`
 * (the existing task's id, or null: tasks are created by whatever first changes them) in the context.
 */
function scopeToTask<S extends z.ZodType>(base: Base, input: S, scope: TaskScope) {
  const projectField = scope.projectField ?? 'id';
  const definitionField = scope.definitionField ?? 'task_definition_id';
  return base.input(input).use(async ({ ctx, input, next }) => {
    const projectId = idIn(input, projectField);
    const project = await ctx.em.findOne(Project, { id: projectId }, { populate: ['unit'] });
    if (!project) throw notFound(UNKNOWN_PROJECT);
    const unit = project.unit as unknown as IUnit;
    const definition = await ctx.em.findOne(TaskDefinition, { id: idIn(input, definitionField), unit: unit.id });
    if (!definition) throw notFound(UNKNOWN_DEFINITION);
    const projectRole = await roleInProject(ctx.em, ctx.user, { userId: (project.user as unknown as { id: number }).id, unitId: unit.id });
    const allowed =
      (scope.project === undefined || canInProject(projectRole, scope.project, unit)) && (scope.task === undefined || canInTask(projectRole, scope.task, unit));
    if (!allowed) throw forbidden(typeof scope.refused === 'function' ? scope.refused(projectId, definition as ITaskDefinition) : scope.refused);
    const task = await ctx.em.findOne(Task, { project: projectId, taskDefinition: definition.id }, { fields: ['id'] });
    return next({
      ctx: {
        project: project as IProject,
        unit,
        definition: definition as ITaskDefinition,
        projectRole: projectRole as ProjectRole,
        taskId: task ? task.id : null,
      },
    });
  });
}

/** A read of one student's task. */
export const taskQuery = <S extends z.ZodType>(input: S, scope: TaskScope) => scopeToTask(authedProcedure, input, scope);

/** A change of one student's task, in one transaction. */
export const taskMutation = <S extends z.ZodType>(input: S, scope: TaskScope) => scopeToTask(authedMutation as Base, input, scope);
