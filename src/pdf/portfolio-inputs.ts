// What a portfolio is made of (beyond-spec.md §8.3), read in a handful of queries: the student and
// unit, the parts, every task definition with the student's task, the unit's outcomes and the
// student's self-assessed alignments, and the comments of the tasks that go into the portfolio.
import type { TaskStatus, UploadKind } from '../../schema/enums.ts';
import { db, timestamp } from '../db/kysely.ts';
import type { Em } from '../db/orm.ts';

export interface PortfolioTask {
  definitionId: number;
  name: string;
  abbreviation: string;
  description: string;
  startDate: string;
  targetDate: string;
  /** The student's task; null for a definition never touched. */
  taskId: number | null;
  status: TaskStatus;
  timesAssessed: number | null;
  includeInPortfolio: boolean;
  /** Storage key of the task's submission PDF. */
  pdfKey: string | null;
}

export interface PortfolioInputs {
  projectId: number;
  student: { firstName: string; lastName: string; username: string };
  unit: { id: number; code: string; name: string };
  convenor: string | null;
  parts: { idx: number; kind: UploadKind; name: string; key: string }[];
  /** Every definition of the unit, by start date then abbreviation. */
  definitions: PortfolioTask[];
  outcomes: { id: number; iloNumber: number; name: string; description: string }[];
  /** The student's own task-level alignments (self-assessed outcome links). */
  alignments: { taskId: number; outcomeId: number; rating: number; description: string | null }[];
  comments: Map<number, { at: Date; author: string; text: string }[]>;
}

const dateText = (d: unknown): string => (d instanceof Date ? d.toISOString().slice(0, 10) : String(d).slice(0, 10));

/** The inputs for one project, or null when the project no longer exists. */
export async function loadPortfolioInputs(em: Em, projectId: number): Promise<PortfolioInputs | null> {
  const k = db(em);
  const project = await k
    .selectFrom('projects as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .innerJoin('units as un', 'un.id', 'p.unit_id')
    .leftJoin('unit_roles as mr', 'mr.id', 'un.main_convenor_id')
    .leftJoin('users as cu', 'cu.id', 'mr.user_id')
    .select([
      'p.id',
      'u.first_name',
      'u.last_name',
      'u.username',
      'un.id as unit_id',
      'un.code',
      'un.name as unit_name',
      'cu.first_name as c_first',
      'cu.last_name as c_last',
    ])
    .where('p.id', '=', projectId)
    .executeTakeFirst();
  if (!project) return null;

  const [parts, rows, outcomes] = await Promise.all([
    k.selectFrom('portfolio_parts').select(['idx', 'kind', 'name', 'storage_key']).where('project_id', '=', projectId).orderBy('idx').execute(),
    k
      .selectFrom('task_definitions as d')
      .leftJoin('tasks as t', (j) => j.onRef('t.task_definition_id', '=', 'd.id').on('t.project_id', '=', projectId))
      .select([
        'd.id',
        'd.name',
        'd.abbreviation',
        'd.description',
        'd.start_date',
        'd.target_date',
        't.id as task_id',
        't.status',
        't.times_assessed',
        't.include_in_portfolio',
        't.pdf_path',
      ])
      .where('d.unit_id', '=', project.unit_id)
      .orderBy('d.start_date')
      .orderBy('d.abbreviation')
      .execute(),
    k
      .selectFrom('learning_outcomes')
      .select(['id', 'ilo_number', 'name', 'description'])
      .where('unit_id', '=', project.unit_id)
      .orderBy('ilo_number')
      .execute(),
  ]);
  const definitions: PortfolioTask[] = rows.map((r) => ({
    definitionId: r.id,
    name: r.name,
    abbreviation: r.abbreviation,
    description: r.description,
    startDate: dateText(r.start_date),
    targetDate: dateText(r.target_date),
    taskId: r.task_id,
    status: (r.status ?? 'not_started') as TaskStatus,
    timesAssessed: r.times_assessed,
    includeInPortfolio: r.include_in_portfolio ?? false,
    pdfKey: r.pdf_path,
  }));
  const taskIds = definitions.flatMap((d) => (d.taskId === null ? [] : [d.taskId]));
  const inPortfolio = portfolioTasks(definitions).map((d) => d.taskId as number);
  const [alignments, comments] = await Promise.all([
    taskIds.length === 0
      ? []
      : k
          .selectFrom('learning_alignments')
          .select(['task_id', 'learning_outcome_id', 'rating', 'description'])
          .where('task_id', 'in', taskIds)
          .orderBy('id')
          .execute(),
    inPortfolio.length === 0
      ? []
      : k
          .selectFrom('task_comments as c')
          .innerJoin('users as a', 'a.id', 'c.author_id')
          .select(['c.task_id', 'c.created_at', 'c.kind', 'c.comment', 'a.first_name', 'a.last_name'])
          .where('c.task_id', 'in', inPortfolio)
          .orderBy('c.created_at')
          .orderBy('c.id')
          .execute(),
  ]);
  const byTask = new Map<number, { at: Date; author: string; text: string }[]>();
  for (const c of comments) {
    const list = byTask.get(c.task_id) ?? [];
    list.push({ at: timestamp(c.created_at), author: authorName(c.first_name, c.last_name), text: commentText(c.kind, c.comment) });
    byTask.set(c.task_id, list);
  }
  return {
    projectId,
    student: { firstName: project.first_name, lastName: project.last_name, username: project.username },
    unit: { id: project.unit_id, code: project.code, name: project.unit_name },
    convenor: project.c_first === null ? null : `${project.c_first} ${project.c_last ?? ''}`.trim(),
    parts: parts.map((p) => ({ idx: p.idx, kind: p.kind, name: p.name, key: p.storage_key })),
    definitions,
    outcomes: outcomes.map((o) => ({ id: o.id, iloNumber: o.ilo_number, name: o.name, description: o.description })),
    alignments: alignments.flatMap((a) =>
      a.task_id === null ? [] : [{ taskId: a.task_id, outcomeId: a.learning_outcome_id, rating: a.rating, description: a.description }],
    ),
    comments: byTask,
  };
}

/** Tasks marked for the portfolio that have a PDF, by target date then abbreviation (whatever their target grade). */
export function portfolioTasks(definitions: readonly PortfolioTask[]): PortfolioTask[] {
  return definitions
    .filter((d) => d.taskId !== null && d.includeInPortfolio && d.pdfKey !== null)
    .sort((a, b) => a.targetDate.localeCompare(b.targetDate) || a.abbreviation.localeCompare(b.abbreviation));
}

/** First word of the first name and the last name, each cut to 12 characters and "..." when over 15 (§8.3). */
function authorName(first: string, last: string): string {
  const cut = (s: string) => (s.length > 15 ? `${s.slice(0, 12)}...` : s);
  return `${cut(first.split(/\s+/)[0] ?? '')} ${cut(last)}`.trim();
}

function commentText(kind: string, comment: string | null): string {
  if (kind === 'text' || kind === 'assessment') return comment ?? '';
  if (kind === 'status') return comment ?? 'Status changed';
  return comment ? `${comment} [${kind}]` : `[${kind} comment]`;
}
