// Operations on one project. The builder loads the project the input names (404 when there is
// none), resolves the caller's role on it through src/policy (its student, or staff of its unit),
// and refuses with 403 and the operation's message unless the project table allows the action;
// then it puts the project, its unit and the role in the context.
import type { z } from 'zod';
import { Project, Unit, type IProject, type IUnit } from '../../../schema/index.ts';
import {
  canInProject,
  canInUnit,
  roleInProject,
  roleInUnit,
  type ProjectAction,
  type ProjectNeed,
  type ProjectRole,
  type UnitAction,
} from '../../policy/index.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { CHANGE, idIn, message, READ, type Base, type Message } from './shared.ts';

export interface ProjectScope<I> {
  /**
   * The project action the caller's role must allow; or, where each request needs its own, a
   * policy function of the input naming what it needs (src/policy's projectChangeNeed).
   */
  action: ProjectAction | ((input: I) => ProjectNeed);
  /** The 403 message; given the project's id and the input. */
  refused: Message<[id: number, input: I]>;
  /** Which input field names the project (default `id`). */
  field?: string;
  unknownIsRefused?: boolean;
  /**
   * The input field naming the unit the path puts the project in: the unit is loaded first (404
   * when unknown), and a project of another unit is unknown (404).
   */
  inUnit?: string;
  /** Only an enrolled project is found (a withdrawn one is 404). */
  enrolledOnly?: boolean;
  /**
   * A unit action that allows the operation too, where the project's role does not: an Admin who
   * is not staff of the unit has no project role, and check-ins let them act as the unit's manager.
   */
  orUnit?: UnitAction;
}

const UNKNOWN_PROJECT = 'Unable to find requested Project';

export const userIdOf = (project: IProject) => (project.user as unknown as { id: number }).id;

function scopeToProject<S extends z.ZodType>(base: Base, input: S, scope: ProjectScope<z.output<S>>) {
  const field = scope.field ?? 'id';
  return base.input(input).use(async ({ ctx, input, next }) => {
    const id = idIn(input, field);
    const where: Record<string, unknown> = { id };
    if (scope.inUnit !== undefined) {
      const unit = await ctx.em.findOne(Unit, { id: idIn(input, scope.inUnit) }, { fields: ['id'] });
      if (!unit) throw notFound('Unable to find requested Unit');
      where.unit = unit.id;
    }
    if (scope.enrolledOnly) where.enrolled = true;
    const project = (await ctx.em.findOne(Project, where, { populate: ['unit'] })) as IProject | null;
    if (!project) throw scope.unknownIsRefused ? forbidden(message(scope.refused, id, input as z.output<S>)) : notFound(UNKNOWN_PROJECT);
    const unit = project.unit as unknown as IUnit;
    const projectRole = await roleInProject(ctx.em, ctx.user, { userId: userIdOf(project), unitId: unit.id });
    const need = typeof scope.action === 'function' ? scope.action(input as z.output<S>) : scope.action;
    const allowed =
      need === null
        ? false
        : typeof need === 'object'
          ? canInUnit(await roleInUnit(ctx.em, ctx.user, unit.id), need.unit)
          : canInProject(projectRole, need, unit);
    const allowedByUnit = !allowed && scope.orUnit !== undefined && canInUnit(await roleInUnit(ctx.em, ctx.user, unit.id), scope.orUnit);
    if (!allowed && !allowedByUnit) throw forbidden(message(scope.refused, id, input as z.output<S>));
    return next({ ctx: { project, unit, projectRole: projectRole as ProjectRole } });
  });
}

/** A read of one project: `ctx.project`, its `ctx.unit` and `ctx.projectRole`. */
export const projectQuery = <S extends z.ZodType>(input: S, scope: ProjectScope<z.output<S>>) => scopeToProject(READ, input, scope);

/** A change of one project, in one transaction. */
export const projectMutation = <S extends z.ZodType>(input: S, scope: ProjectScope<z.output<S>>) => scopeToProject(CHANGE, input, scope);
