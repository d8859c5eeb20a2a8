// Operations on the similarities of one task, named by the task's own id. The builder loads the
// task (404 when unknown), resolves the caller's role on its project through src/policy, and
// refuses with 403 and the operation's message unless the task table allows the action (students
// and other units' staff never see similarities); then it puts the task in the context.
import type { z } from 'zod';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { canInTask, roleInProject, type TaskAction } from '../../policy/index.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import { CHANGE, idIn, READ, type Base } from './shared.ts';

export interface SimilarityTask {
  id: number;
  projectId: number;
  unitId: number;
  taskDefinitionId: number;
}

export interface SimilarityScope {
  /** `view_plagiarism` to read, `delete_plagiarism` to change. */
  action: TaskAction;
  refused: string;
  /** Which input field names the task (default `task_id`; `id` on the older paths). */
  field?: string;
}

/** The task (404 when unknown), once the caller's role on it allows the action (403 with `refused` otherwise). */
export async function similarityTask(
  em: Em,
  user: { id: number },
  taskId: number,
  scope: Pick<SimilarityScope, 'action' | 'refused'>,
): Promise<SimilarityTask> {
  const task = await db(em)
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('units as u', 'u.id', 'p.unit_id')
    .select(['t.id', 't.project_id', 't.task_definition_id', 'p.user_id', 'p.unit_id', 'u.allow_student_extension_requests'])
    .where('t.id', '=', taskId)
    .executeTakeFirst();
  if (!task) throw notFound('Unable to find requested Task');
  const role = await roleInProject(em, user, { userId: task.user_id, unitId: task.unit_id });
  if (!canInTask(role, scope.action, { allowStudentExtensionRequests: task.allow_student_extension_requests })) throw forbidden(scope.refused);
  return { id: task.id, projectId: task.project_id, unitId: task.unit_id, taskDefinitionId: task.task_definition_id };
}

function scopeToSimilarity<S extends z.ZodType>(base: Base, input: S, scope: SimilarityScope) {
  return base.input(input).use(async ({ ctx, input, next }) => {
    const task = await similarityTask(ctx.em, ctx.user, idIn(input, scope.field ?? 'task_id'), scope);
    return next({ ctx: { task } });
  });
}

/** A read of a task's similarities: `ctx.task`. */
export const similarityQuery = <S extends z.ZodType>(input: S, scope: SimilarityScope) => scopeToSimilarity(READ, input, scope);

/** A change of a task's similarities, in one transaction. */
export const similarityMutation = <S extends z.ZodType>(input: S, scope: SimilarityScope) => scopeToSimilarity(CHANGE, input, scope);
