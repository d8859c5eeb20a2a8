import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { canInTask, roleInProject, type TaskAction } from '../../../policy/index.ts';
import { forbidden, notFound } from '../../../trpc/errors.ts';

export interface SimilarityTask {
  id: number;
  projectId: number;
  unitId: number;
  taskDefinitionId: number;
}

/** The task (404 when unknown), once the caller's role on it allows `action` (403 otherwise: students, other units' staff). */
export async function similarityTask(em: Em, user: { id: number }, taskId: number, action: TaskAction): Promise<SimilarityTask> {
  const task = await db(em)
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('units as u', 'u.id', 'p.unit_id')
    .select(['t.id', 't.project_id', 't.task_definition_id', 'p.user_id', 'p.unit_id', 'u.allow_student_extension_requests'])
    .where('t.id', '=', taskId)
    .executeTakeFirst();
  if (!task) throw notFound('Unable to find requested Task');
  const role = await roleInProject(em, user, { userId: task.user_id, unitId: task.unit_id });
  if (!canInTask(role, action, { allowStudentExtensionRequests: task.allow_student_extension_requests })) {
    throw forbidden(
      action === 'view_plagiarism' ? 'Not authorised to view the similarities of this task' : 'Not authorised to change the similarities of this task',
    );
  }
  return { id: task.id, projectId: task.project_id, unitId: task.unit_id, taskDefinitionId: task.task_definition_id };
}
