// A unit's task–outcome alignments. One without a task is the unit's own (how strongly a task
// definition addresses an outcome, kept by its convenors); one with a task is a student's
// self-assessment of that task. Functions take the entity manager and plain input, so the
// single operations and the CSV import share them.
import type { SystemRole } from '../../../../schema/enums.ts';
import { LearningAlignment, type IUnit } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { canInProject, roleInProject, type ProjectAction } from '../../../policy/index.ts';
import { badRequest, forbidden, notFound } from '../../../lib/errors.ts';
import { ensureTask } from '../../tasks/tasks.ts';
import type { AlignmentRow } from './alignment-row.ts';

export const UNKNOWN_ALIGNMENT = 'Unable to find requested Learning Alignment';
export const UNKNOWN_PROJECT = 'Unable to find requested Project';
export const UNKNOWN_TASK = 'Unable to find requested Task';
export const UNKNOWN_OUTCOME = 'Unable to find requested Learning Outcome';
export const UNKNOWN_DEFINITION = 'Unable to find requested Task definition';

const COLUMNS = ['a.id', 'a.description', 'a.rating', 'a.learning_outcome_id', 'a.task_definition_id', 'a.task_id'] as const;

/** A student's alignments of their own tasks, in the order they were made. */
export function projectAlignments(em: Em, projectId: number): Promise<AlignmentRow[]> {
  return db(em)
    .selectFrom('learning_alignments as a')
    .innerJoin('tasks as t', 't.id', 'a.task_id')
    .select(COLUMNS)
    .where('t.project_id', '=', projectId)
    .orderBy('a.id')
    .execute();
}

/** An alignment of this unit, with the student whose task it assesses (null for the unit's own); 404 otherwise. */
export async function findAlignment(em: Em, unitId: number, id: number): Promise<{ row: AlignmentRow; studentId: number | null }> {
  const found = await db(em)
    .selectFrom('learning_alignments as a')
    .innerJoin('task_definitions as d', 'd.id', 'a.task_definition_id')
    .leftJoin('tasks as t', 't.id', 'a.task_id')
    .leftJoin('projects as p', 'p.id', 't.project_id')
    .select([...COLUMNS, 'p.user_id as student_id'])
    .where('a.id', '=', id)
    .where('d.unit_id', '=', unitId)
    .executeTakeFirst();
  if (!found) throw notFound(UNKNOWN_ALIGNMENT);
  const { student_id, ...row } = found;
  return { row, studentId: student_id };
}

export interface ProjectRef {
  id: number;
  user_id: number;
  username: string;
}

/** A project of this unit (404 for an unknown one or one of another unit). */
export async function projectOfUnit(em: Em, unitId: number, projectId: number): Promise<ProjectRef> {
  const project = await db(em)
    .selectFrom('projects as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select(['p.id', 'p.user_id', 'u.username'])
    .where('p.id', '=', projectId)
    .where('p.unit_id', '=', unitId)
    .executeTakeFirst();
  if (!project) throw notFound(UNKNOWN_PROJECT);
  return project;
}

/** A task of this unit with its project and definition (404 otherwise). */
export async function taskOfUnit(em: Em, unitId: number, taskId: number): Promise<{ id: number; project_id: number; task_definition_id: number }> {
  const task = await db(em)
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .select(['t.id', 't.project_id', 't.task_definition_id'])
    .where('t.id', '=', taskId)
    .where('p.unit_id', '=', unitId)
    .executeTakeFirst();
  if (!task) throw notFound(UNKNOWN_TASK);
  return task;
}

/** Refuses (403) unless the caller is the project's student or staff of its unit and that role may act. */
export async function authorizeOnProject(
  em: Em,
  user: { id: number; systemRole: SystemRole },
  unit: IUnit,
  projectUserId: number,
  action: ProjectAction,
  message: string,
): Promise<void> {
  const role = await roleInProject(em, user, { userId: projectUserId, unitId: unit.id });
  if (!canInProject(role, action, unit)) throw forbidden(message);
}

export interface AlignmentFields {
  outcomeId: number;
  definitionId: number;
  /**
   * null: the unit's own alignment. A task id, or a project whose task of the definition is
   * made if it does not exist yet (tasks are made on first touch): the student's self-assessment.
   */
  task: null | number | { projectId: number; now: Date };
  rating: number;
  description: string;
}

/**
 * Adds an alignment. The outcome and the definition must be the unit's (404), and the pair may be
 * aligned once at unit level and once per task. The definition's row is locked, so two requests
 * cannot both add the same pair.
 */
export async function createAlignment(em: Em, unitId: number, fields: AlignmentFields): Promise<AlignmentRow> {
  const k = db(em);
  const outcome = await k.selectFrom('learning_outcomes').select('id').where('id', '=', fields.outcomeId).where('unit_id', '=', unitId).executeTakeFirst();
  if (!outcome) throw notFound(UNKNOWN_OUTCOME);
  const definition = await k
    .selectFrom('task_definitions')
    .select('id')
    .where('id', '=', fields.definitionId)
    .where('unit_id', '=', unitId)
    .forUpdate()
    .executeTakeFirst();
  if (!definition) throw notFound(UNKNOWN_DEFINITION);
  const taskId =
    fields.task === null || typeof fields.task === 'number' ? fields.task : await ensureTask(em, fields.task.projectId, fields.definitionId, fields.task.now);

  let existing = k
    .selectFrom('learning_alignments')
    .select('id')
    .where('task_definition_id', '=', fields.definitionId)
    .where('learning_outcome_id', '=', fields.outcomeId);
  existing = taskId === null ? existing.where('task_id', 'is', null) : existing.where('task_id', '=', taskId);
  if (await existing.executeTakeFirst()) {
    throw badRequest(`Validation failed: ${taskId === null ? 'Task definition' : 'Task'} already linked to this learning outcome`);
  }
  const alignment = em.create(LearningAlignment, {
    taskDefinition: fields.definitionId,
    learningOutcome: fields.outcomeId,
    task: taskId,
    rating: fields.rating,
    description: fields.description,
  });
  await em.flush();
  return {
    id: alignment.id,
    description: alignment.description ?? null,
    rating: alignment.rating,
    learning_outcome_id: fields.outcomeId,
    task_definition_id: fields.definitionId,
    task_id: taskId,
  };
}

/** Changes the rating and description sent; the rest stays. */
export async function updateAlignment(em: Em, row: AlignmentRow, changes: { rating?: number; description?: string }): Promise<AlignmentRow> {
  const set: { rating?: number; description?: string } = {};
  if (changes.rating !== undefined) set.rating = changes.rating;
  if (changes.description !== undefined) set.description = changes.description;
  if (Object.keys(set).length === 0) return row;
  await em.nativeUpdate(LearningAlignment, { id: row.id }, set);
  return { ...row, ...set };
}

export async function deleteAlignment(em: Em, id: number): Promise<void> {
  await em.nativeDelete(LearningAlignment, { id });
}
