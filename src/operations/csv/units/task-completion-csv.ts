import type { IUnit } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { writeCsv } from '../../../domain/csv.ts';
import { csvDownload, type FileResult } from '../../../lib/files.ts';
import { GRADE_LETTERS, GRADE_NAMES } from '../../../domain/task-rules.ts';
import { STATUS_NAMES } from '../../../domain/task-status.ts';
import { portfolioAvailable } from '../../../domain/portfolio.ts';

/**
 * `<CODE>-TaskCompletion.csv`: per enrolled student their grades, tutorial per stream, group per
 * group set, then per task definition (by target grade, start date, abbreviation) the task's
 * status, and its grade, stars and contribution when the definition is graded, has quality points
 * or is a group task.
 */
export async function taskCompletionCsv(em: Em, unit: Pick<IUnit, 'id' | 'code'>): Promise<FileResult> {
  const k = db(em);
  const unitId = unit.id;
  const streams = await k.selectFrom('tutorial_streams').select(['id', 'abbreviation']).where('unit_id', '=', unitId).orderBy('id').execute();
  const groupSets = await k.selectFrom('group_sets').select(['id', 'name']).where('unit_id', '=', unitId).orderBy('id').execute();
  const defs = await k
    .selectFrom('task_definitions')
    .select(['id', 'abbreviation', 'is_graded', 'max_quality_pts', 'group_set_id'])
    .where('unit_id', '=', unitId)
    .orderBy('target_grade')
    .orderBy('start_date')
    .orderBy('abbreviation')
    .execute();
  const projects = await k
    .selectFrom('projects as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select([
      'p.id',
      'u.student_id',
      'u.username',
      'u.first_name',
      'u.last_name',
      'u.email',
      'p.target_grade',
      'p.compile_portfolio',
      'p.portfolio_production_date',
      'p.grade',
      'p.grade_rationale',
    ])
    .where('p.unit_id', '=', unitId)
    .where('p.enrolled', '=', true)
    .orderBy('p.id')
    .execute();
  const ids = projects.map((p) => p.id);
  const none = [-1];
  const tutorials = await k
    .selectFrom('tutorial_enrolments as e')
    .innerJoin('tutorials as t', 't.id', 'e.tutorial_id')
    .select(['e.project_id', 't.abbreviation', 't.tutorial_stream_id'])
    .where('e.project_id', 'in', ids.length ? ids : none)
    .execute();
  const groups = await k
    .selectFrom('group_memberships as m')
    .innerJoin('groups as g', 'g.id', 'm.group_id')
    .select(['m.project_id', 'g.group_set_id', 'g.name'])
    .where('m.active', '=', true)
    .where('m.project_id', 'in', ids.length ? ids : none)
    .execute();
  const tasks = await k
    .selectFrom('tasks')
    .select(['project_id', 'task_definition_id', 'status', 'grade', 'quality_pts', 'contribution_pts'])
    .where('project_id', 'in', ids.length ? ids : none)
    .execute();
  const taskOf = new Map(tasks.map((t) => [`${t.project_id}:${t.task_definition_id}`, t]));

  const header = [
    'Student ID',
    'Username',
    'Student Name',
    'Target Grade',
    'Email',
    'Portfolio',
    'Grade',
    'Rationale',
    ...(streams.length ? streams.map((s) => s.abbreviation) : ['Tutorial']),
    ...groupSets.map((g) => g.name),
    ...defs.flatMap((d) => [
      d.abbreviation,
      ...(d.is_graded ? [`${d.abbreviation} grade`] : []),
      ...(d.max_quality_pts > 0 ? [`${d.abbreviation} stars`] : []),
      ...(d.group_set_id !== null ? [`${d.abbreviation} contribution`] : []),
    ]),
  ];
  const cell = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : v);
  const rows = projects.map((p) => {
    const mine = tutorials.filter((t) => t.project_id === p.id);
    const tutorialCells = streams.length
      ? streams.map((s) => mine.find((t) => t.tutorial_stream_id === s.id || t.tutorial_stream_id === null)?.abbreviation ?? '')
      : [mine[0]?.abbreviation ?? ''];
    return [
      cell(p.student_id),
      p.username,
      `${p.first_name} ${p.last_name}`,
      GRADE_NAMES[p.target_grade] ?? '',
      p.email,
      String(portfolioAvailable(p)),
      p.grade > 0 ? p.grade : '',
      cell(p.grade_rationale),
      ...tutorialCells,
      ...groupSets.map((gs) => groups.find((g) => g.project_id === p.id && g.group_set_id === gs.id)?.name ?? ''),
      ...defs.flatMap((d) => {
        const t = taskOf.get(`${p.id}:${d.id}`);
        return [
          STATUS_NAMES[t?.status ?? 'not_started'],
          ...(d.is_graded ? [t?.grade === null || t?.grade === undefined ? '' : (GRADE_LETTERS[t.grade] ?? '')] : []),
          ...(d.max_quality_pts > 0 ? [cell(t?.quality_pts)] : []),
          ...(d.group_set_id !== null ? [cell(t?.contribution_pts)] : []),
        ];
      }),
    ];
  });
  return csvDownload(`${unit.code}-TaskCompletion.csv`, writeCsv(header, rows), 'text/csv');
}
