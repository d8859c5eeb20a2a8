// GET /api/projects/{project_id}/discussion_prompts (docs/discussion-prompts.md): what a tutor asks
// the student now, the prompts of the project's tasks in discuss or demonstrate. One statement.
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { DISCUSSING } from '../../../domain/task-status.ts';
import type { TaskStatus } from '../../../domain/vocabulary.ts';

export interface ProjectPromptRow {
  id: number;
  task_definition_id: number;
  task_id: number;
  abbreviation: string;
  task_status: TaskStatus;
  content: string;
  priority: number;
}

/** By task abbreviation, then priority, then id. */
export async function projectPrompts(em: Em, projectId: number): Promise<ProjectPromptRow[]> {
  return db(em)
    .selectFrom('tasks as t')
    .innerJoin('task_definitions as d', 'd.id', 't.task_definition_id')
    .innerJoin('discussion_prompts as p', 'p.task_definition_id', 'd.id')
    .select(['p.id', 'p.task_definition_id', 't.id as task_id', 'd.abbreviation', 't.status as task_status', 'p.content', 'p.priority'])
    .where('t.project_id', '=', projectId)
    .where('t.status', 'in', [...DISCUSSING])
    .orderBy('d.abbreviation')
    .orderBy('p.priority')
    .orderBy('p.id')
    .execute();
}
