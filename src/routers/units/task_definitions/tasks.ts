import { z } from 'zod';
import { sql } from 'kysely';
import type { Em } from '../../../db/orm.ts';
import { db, timestamp } from '../../../db/kysely.ts';
import { unitQuery } from '../../../trpc/scoped.ts';
import { findTaskDefinition } from './operations.ts';
import { definitionTaskOut, definitionTasksInput, type DefinitionTaskOut } from './schemas.ts';

/**
 * The started tasks of one definition across the unit's enrolled students: one query. A task's
 * tutorial is its student's tutorial in the definition's stream (or, for a definition without a
 * stream, in a tutorial without one). `similarity_flag` says some similarity was detected;
 * `has_extensions` counts extension requests still waiting for an answer.
 */
export async function tasksOfDefinition(em: Em, unitId: number, definitionId: number, streamId: number | null): Promise<DefinitionTaskOut[]> {
  const rows = await db(em)
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('tutorial_enrolments as e')
          .innerJoin('tutorials as tu', 'tu.id', 'e.tutorial_id')
          .select(['e.tutorial_id', 'tu.tutorial_stream_id'])
          .whereRef('e.project_id', '=', 'p.id')
          .where((w) => (streamId === null ? w('tu.tutorial_stream_id', 'is', null) : w('tu.tutorial_stream_id', '=', streamId)))
          .orderBy('e.id')
          .limit(1)
          .as('te'),
      (join) => join.onTrue(),
    )
    .select([
      't.project_id',
      't.id',
      't.task_definition_id',
      'te.tutorial_id',
      'te.tutorial_stream_id',
      't.status',
      't.completion_date',
      't.submission_date',
      't.times_assessed',
      't.grade',
      't.quality_pts',
    ])
    .select((eb) => [
      eb.exists(eb.selectFrom('task_similarities as s').select('s.id').whereRef('s.task_id', '=', 't.id')).as('similarity_flag'),
      eb
        .selectFrom('task_comments as c')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('c.task_id', '=', 't.id')
        .where('c.kind', '=', 'extension')
        .where('c.extension_assessed_at', 'is', null)
        .as('has_extensions'),
    ])
    .where('t.task_definition_id', '=', definitionId)
    .where('p.unit_id', '=', unitId)
    .where('p.enrolled', '=', true)
    .orderBy('t.id')
    .execute();
  return rows.map((r) => ({
    ...r,
    tutorial_id: r.tutorial_id ?? null,
    tutorial_stream_id: r.tutorial_stream_id ?? null,
    completion_date: r.completion_date === null ? null : String(r.completion_date).slice(0, 10),
    submission_date: r.submission_date === null ? null : timestamp(r.submission_date).toISOString(),
    similarity_flag: Boolean(r.similarity_flag),
    has_extensions: r.has_extensions ?? 0,
  }));
}

export const definitionTasks = unitQuery(definitionTasksInput, {
  action: 'provide_feedback',
  refused: 'Not authorised to access tasks for this unit',
})
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/units/{unit_id}/task_definitions/{task_def_id}/tasks',
      tags: ['Task definitions'],
      summary: "The students' tasks of one task definition",
      description: "Every enrolled student's started task, with the student's tutorial in the definition's stream. Unit Tutor or Convenor.",
    },
  })
  .output(z.array(definitionTaskOut))
  .query(async ({ ctx, input }) => {
    const td = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_def_id);
    const streamId = td.tutorialStream ? (td.tutorialStream as unknown as { id: number }).id : null;
    return tasksOfDefinition(ctx.em, ctx.unit.id, td.id, streamId);
  });
