// The analytics page's three reads (behaviour.md §4.8, beyond-spec.md §2.3). Each is a fixed
// number of aggregate queries, whatever the number of students and tasks.
import { sql } from 'kysely';
import type { TaskStatus } from '../../../../schema/enums.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { taskTutorialJoin } from '../../../db/task-list.ts';
import { statistic, type Statistic } from '../../../domain/statistics.ts';

interface StatusEntry {
  tutorial_stream_id: number | null;
  status: TaskStatus | 'not_started';
  num: number;
}

export async function taskStatusPct(em: Em, unitId: number): Promise<Record<string, Record<string, StatusEntry[]>>> {
  const q = db(em);
  const [definitions, counted, eligible] = await Promise.all([
    q.selectFrom('task_definitions').select('id').where('unit_id', '=', unitId).orderBy('id').execute(),
    sql<{ td_id: number; tutorial_id: number | null; stream_id: number | null; status: TaskStatus; num: number }>`
      select d.id as td_id, tf.tutorial_id, tf.tutorial_stream_id as stream_id, k.status, count(*)::int as num
      from tasks k
      join projects p on p.id = k.project_id and p.enrolled and p.unit_id = ${unitId}
      join task_definitions d on d.id = k.task_definition_id
      ${taskTutorialJoin('tf')}
      where k.status <> 'not_started'
      group by 1, 2, 3, 4 order by 1, 2, 4`.execute(q),
    sql<{ td_id: number; tutorial_id: number | null; stream_id: number | null; num: number }>`
      select d.id as td_id, tf.tutorial_id, tf.tutorial_stream_id as stream_id, count(*)::int as num
      from task_definitions d
      join projects p on p.unit_id = d.unit_id and p.enrolled and p.target_grade >= d.target_grade
      ${taskTutorialJoin('tf')}
      where d.unit_id = ${unitId}
      group by 1, 2, 3 order by 1, 2`.execute(q),
  ]);
  const out: Record<string, Record<string, StatusEntry[]>> = {};
  for (const d of definitions) out[d.id] = {};
  const key = (tutorialId: number | null) => (tutorialId === null ? '' : String(tutorialId));
  const entriesOf = (tdId: number, tutorialId: number | null) => {
    const byTutorial = out[tdId];
    byTutorial[key(tutorialId)] ??= [];
    return byTutorial[key(tutorialId)];
  };
  const countedIn = new Map<string, number>();
  for (const row of counted.rows) {
    entriesOf(row.td_id, row.tutorial_id).push({ tutorial_stream_id: row.stream_id, status: row.status, num: row.num });
    const k = `${row.td_id}/${key(row.tutorial_id)}`;
    countedIn.set(k, (countedIn.get(k) ?? 0) + row.num);
  }
  // Students aiming for the definition who have not started it (tasks are made on first touch).
  for (const row of eligible.rows) {
    const notStarted = row.num - (countedIn.get(`${row.td_id}/${key(row.tutorial_id)}`) ?? 0);
    if (notStarted > 0) entriesOf(row.td_id, row.tutorial_id).push({ tutorial_stream_id: row.stream_id, status: 'not_started', num: notStarted });
  }
  return out;
}

export async function studentTargetGrades(em: Em, unitId: number) {
  return db(em)
    .selectFrom('projects as p')
    .leftJoin('tutorial_enrolments as e', 'e.project_id', 'p.id')
    .leftJoin('tutorials as t', 't.id', 'e.tutorial_id')
    .select(['t.id as tutorial_id', 't.tutorial_stream_id', 'p.target_grade as grade'])
    .select(sql<number>`count(*)::int`.as('num'))
    .where('p.unit_id', '=', unitId)
    .where('p.enrolled', '=', true)
    .groupBy(['t.id', 't.tutorial_stream_id', 'p.target_grade'])
    .orderBy('t.id')
    .orderBy('p.target_grade')
    .execute();
}

export async function taskCompletionStats(em: Em, unitId: number) {
  const q = db(em);
  const [completions, enrolments, tutorials] = await Promise.all([
    sql<{ project_id: number; target_grade: number; complete: number }>`
      select p.id as project_id, p.target_grade, count(*)::int as complete
      from projects p join tasks k on k.project_id = p.id and k.status = 'complete'
      where p.unit_id = ${unitId} and p.enrolled
      group by p.id, p.target_grade`.execute(q),
    q
      .selectFrom('tutorial_enrolments as e')
      .innerJoin('tutorials as t', 't.id', 'e.tutorial_id')
      .select(['e.project_id', 'e.tutorial_id'])
      .where('t.unit_id', '=', unitId)
      .execute(),
    q.selectFrom('tutorials').select('id').where('unit_id', '=', unitId).orderBy('id').execute(),
  ]);
  const complete = new Map(completions.rows.map((r) => [r.project_id, r]));
  const perTutorial = new Map<number, number[]>(tutorials.map((t) => [t.id, []]));
  for (const e of enrolments) {
    const c = complete.get(e.project_id);
    if (c) perTutorial.get(e.tutorial_id)?.push(c.complete);
  }
  const tutorial: Record<string, Statistic> = {};
  for (const [id, values] of perTutorial) tutorial[id] = statistic(values);
  const grade: Record<string, Statistic> = {};
  for (const g of [0, 1, 2, 3]) grade[g] = statistic(completions.rows.filter((r) => r.target_grade === g).map((r) => r.complete));
  return { unit: statistic(completions.rows.map((r) => r.complete)), tutorial, grade };
}
