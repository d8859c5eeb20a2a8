import { sql } from 'kysely';
import { z } from 'zod';
import { db, timestamp } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { pendingExtensions, similarityFlag, taskTutorialJoin } from '../../../db/task-list.ts';
import { dueDay } from '../../../domain/task-rules.ts';
import { findTaskDefinition } from './find-task-definition.ts';

// Spec "Task (as listed for a task definition)".

export const definitionTaskOut = z.object({
  project_id: z.number().int(),
  id: z.number().int(),
  task_definition_id: z.number().int(),
  tutorial_id: z.number().int().nullable(),
  tutorial_stream_id: z.number().int().nullable(),
  status: z.string(),
  completion_date: z.string().nullable(),
  submission_date: z.string().nullable(),
  times_assessed: z.number().int(),
  similarity_flag: z.boolean(),
  grade: z.number().int().nullable(),
  quality_pts: z.number().int().describe('-1 until rated'),
  has_extensions: z.number().int(),
  // Beyond the spec's shape: the web client's task explorer reads these from this list too.
  due_date: z.string().describe('YYYY-MM-DD: the target date plus granted extensions, capped at the deadline'),
  extensions: z.number().int(),
  include_in_portfolio: z.boolean(),
});
export type DefinitionTaskOut = z.infer<typeof definitionTaskOut>;

/**
 * The tasks of one definition across the unit's enrolled students: one query. A task's tutorial
 * is its student's tutorial in the definition's stream (or one without a stream);
 * `similarity_flag` says a similarity was flagged; `has_extensions` counts extension requests
 * still waiting for an answer (the same columns as the inbox, src/db/task-list.ts). Also the due
 * date, extensions and portfolio flag, which the web client reads from this list as from the inbox.
 */
export async function tasksOfDefinition(em: Em, unitId: number, definitionId: number): Promise<DefinitionTaskOut[]> {
  const rows = await sql<{
    project_id: number;
    id: number;
    task_definition_id: number;
    tutorial_id: number | null;
    tutorial_stream_id: number | null;
    status: string;
    completion_date: string | null;
    submission_date: string | null;
    times_assessed: number;
    similarity_flag: boolean;
    grade: number | null;
    quality_pts: number;
    has_extensions: number;
    extensions: number;
    include_in_portfolio: boolean;
    target_date: string;
    deadline: string;
  }>`
    select t.project_id, t.id, t.task_definition_id, te.tutorial_id, te.tutorial_stream_id, t.status,
           t.completion_date, t.submission_date, t.times_assessed, ${similarityFlag} as similarity_flag,
           t.grade, t.quality_pts, ${pendingExtensions} as has_extensions, t.extensions, t.include_in_portfolio,
           d.target_date, coalesce(d.due_date, u.end_date) as deadline
    from tasks t
    join projects p on p.id = t.project_id
    join units u on u.id = p.unit_id
    join task_definitions d on d.id = t.task_definition_id
    ${taskTutorialJoin()}
    where t.task_definition_id = ${definitionId} and p.unit_id = ${unitId} and p.enrolled
    order by t.id`.execute(db(em));
  return rows.rows.map(({ target_date, deadline, ...r }) => ({
    ...r,
    completion_date: r.completion_date === null ? null : String(r.completion_date).slice(0, 10),
    submission_date: r.submission_date === null ? null : timestamp(r.submission_date).toISOString(),
    due_date: dueDay({ targetDate: String(target_date).slice(0, 10), deadline: String(deadline).slice(0, 10) }, r.extensions),
  }));
}

/** The tasks of definition `definitionId` of unit `unitId` (404 when it is not the unit's). */
export async function listDefinitionTasks(em: Em, unitId: number, definitionId: number): Promise<DefinitionTaskOut[]> {
  const td = await findTaskDefinition(em, unitId, definitionId);
  return tasksOfDefinition(em, unitId, td.id);
}
