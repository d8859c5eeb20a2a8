// GET .../task_definitions/{td}/rubric_marks/csv: one row per enrolled student for a moderation
// meeting: each criterion's chosen level and points, the score, what it gave the task, the marker.
// Three statements whatever the class size.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { writeCsv, type CsvCell } from '../../../../domain/csv.ts';
import { GRADE_LETTERS } from '../../../../domain/task-rules.ts';
import { loadDefinitionTerms, loadRubric } from '../rubric/load-rubric.ts';

interface Row {
  project_id: number;
  username: string;
  name: string;
  mark_id: number | null;
  score: number | null;
  grade: number | null;
  quality_pts: number | null;
  marker: string | null;
}

export async function rubricMarksCsv(em: Em, unitId: number, taskDefinitionId: number): Promise<string> {
  await loadDefinitionTerms(em, unitId, taskDefinitionId);
  const rubric = await loadRubric(em, taskDefinitionId);
  const k = db(em);
  const rows = (
    await sql<Row>`select p.id as project_id, u.username, u.first_name || ' ' || u.last_name as name, m.id as mark_id, m.score,
            t.grade, t.quality_pts, mu.username as marker
       from projects p
       join users u on u.id = p.user_id
       left join tasks t on t.project_id = p.id and t.task_definition_id = ${taskDefinitionId}
       left join rubric_marks m on m.task_id = t.id and m.rubric_id = ${rubric.id}
       left join users mu on mu.id = m.marker_id
      where p.unit_id = ${unitId} and p.enrolled
      order by u.username`.execute(k)
  ).rows;
  const markIds = rows.map((r) => r.mark_id).filter((id) => id !== null);
  const choices =
    markIds.length === 0
      ? []
      : await k.selectFrom('rubric_mark_choices').select(['mark_id', 'criterion_id', 'level_id']).where('mark_id', 'in', markIds).execute();
  const chosen = new Map(choices.map((c) => [`${c.mark_id}:${c.criterion_id}`, c.level_id]));
  const levels = new Map(rubric.criteria.flatMap((c) => c.levels.map((l) => [l.id, l] as const)));

  const header = [
    'Username',
    'Name',
    ...rubric.criteria.flatMap((c) => [`${c.title} level`, `${c.title} points`]),
    'Score',
    'Max score',
    'Grade',
    'Quality points',
    'Marker',
  ];
  const body = rows.map((r): CsvCell[] => {
    const perCriterion = rubric.criteria.flatMap((c) => {
      const level = r.mark_id === null ? undefined : levels.get(chosen.get(`${r.mark_id}:${c.id}`) ?? -1);
      return [level?.title ?? '', level?.points ?? ''];
    });
    const marked = r.mark_id !== null;
    return [
      r.username,
      r.name,
      ...perCriterion,
      marked ? Number(r.score) : '',
      rubric.max_score,
      marked && r.grade !== null ? GRADE_LETTERS[r.grade] : '',
      marked && r.quality_pts !== null && r.quality_pts >= 0 ? r.quality_pts : '',
      r.marker ?? '',
    ];
  });
  return writeCsv(header, body);
}
