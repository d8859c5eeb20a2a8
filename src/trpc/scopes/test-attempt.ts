// Operations on one test attempt, named by its own id (/api/test_attempts/{id}). The builder loads
// the attempt with its task, project, unit and definition (404 when unknown), resolves the caller's
// role on the project through src/policy, and refuses with 403 and the operation's message unless
// the task table allows one of the actions the input needs. Then the attempt's records go in the
// context.
import type { z } from 'zod';
import { Project, TaskDefinition, type IProject, type ITaskDefinition, type IUnit } from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import { couldBeRowId } from '../../db/lookup.ts';
import { canInTask, roleInProject, type ProjectRole, type TaskAction } from '../../policy/index.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { CHANGE, idIn, READ, type Base } from './shared.ts';

export interface TestAttemptScope<I> {
  /** Any one of these task actions lets the caller in; a function of the input when it depends on the fields sent. */
  actions: TaskAction[] | ((input: I) => TaskAction[]);
  refused: string | ((input: I) => string);
}

export const UNKNOWN_ATTEMPT = 'Unable to find requested Test attempt';

function scopeToAttempt<S extends z.ZodType>(base: Base, input: S, scope: TestAttemptScope<z.output<S>>) {
  return base.input(input).use(async ({ ctx, input, next }) => {
    const id = idIn(input, 'id');
    if (!couldBeRowId(id)) throw notFound(UNKNOWN_ATTEMPT);
    const row = await db(ctx.em)
      .selectFrom('test_attempts as a')
      .innerJoin('tasks as t', 't.id', 'a.task_id')
      .select(['a.id', 'a.task_id', 't.project_id', 't.task_definition_id'])
      .where('a.id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound(UNKNOWN_ATTEMPT);
    const project = (await ctx.em.findOne(Project, { id: row.project_id }, { populate: ['unit'] })) as IProject;
    const unit = project.unit as unknown as IUnit;
    const definition = (await ctx.em.findOne(TaskDefinition, { id: row.task_definition_id })) as ITaskDefinition;
    const projectRole = await roleInProject(ctx.em, ctx.user, { userId: (project.user as unknown as { id: number }).id, unitId: unit.id });
    const typed = input as z.output<S>;
    const actions = typeof scope.actions === 'function' ? scope.actions(typed) : scope.actions;
    if (!actions.some((action) => canInTask(projectRole, action, unit))) {
      throw forbidden(typeof scope.refused === 'function' ? scope.refused(typed) : scope.refused);
    }
    return next({
      ctx: { attempt: { id: row.id, taskId: row.task_id }, project, unit, definition, projectRole: projectRole as ProjectRole },
    });
  });
}

/** A read of one attempt: `ctx.attempt`, `ctx.project`, `ctx.unit`, `ctx.definition`, `ctx.projectRole`. */
export const testAttemptQuery = <S extends z.ZodType>(input: S, scope: TestAttemptScope<z.output<S>>) => scopeToAttempt(READ, input, scope);

/** A change of one attempt, in one transaction. */
export const testAttemptMutation = <S extends z.ZodType>(input: S, scope: TestAttemptScope<z.output<S>>) => scopeToAttempt(CHANGE, input, scope);
