// A project's dashboard: its tasks, tutorial enrolments, groups and the student's outcome
// alignments, one query each whatever their number.
import { sql } from 'kysely';
import type { IProject, IUnit } from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { loadProjectTasks } from '../../operations/projects/load-project-tasks.ts';
import { portfolioParts } from '../../operations/submission/project/portfolio/portfolio-parts.ts';
import { toUnitBrief } from '../unit_roles/schemas.ts';
import { portfolioAvailable } from '../../domain/portfolio.ts';
import type { ProjectDetailOut } from './schemas.ts';

export interface DetailViewer {
  userId: number;
  /** The viewer's role in the project's unit, shown as `unit.my_role`. */
  unitRole: string;
  /** May the viewer see similarity flags (staff)? */
  seesSimilarity: boolean;
}

export async function loadProjectDetail(em: Em, project: IProject, unit: IUnit, viewer: DetailViewer): Promise<ProjectDetailOut> {
  const k = db(em);
  const tasks = await loadProjectTasks(em, { projectId: project.id }, { userId: viewer.userId, seesSimilarity: viewer.seesSimilarity });
  const enrolments = await k
    .selectFrom('tutorial_enrolments')
    .select(['project_id', 'tutorial_id'])
    .where('project_id', '=', project.id)
    .orderBy('id')
    .execute();
  const groups = await k
    .selectFrom('group_memberships as gm')
    .innerJoin('groups as g', 'g.id', 'gm.group_id')
    .select(['g.id', 'g.name', 'g.tutorial_id', 'g.group_set_id', 'g.capacity_adjustment', 'g.locked'])
    .select(
      sql<number>`(select count(*)::int from group_memberships o join projects op on op.id = o.project_id
        where o.group_id = g.id and o.active and op.enrolled)`.as('student_count'),
    )
    .where('gm.project_id', '=', project.id)
    .where('gm.active', '=', true)
    .orderBy('g.id')
    .execute();
  const alignments = await k
    .selectFrom('learning_alignments as a')
    .innerJoin('tasks as t', 't.id', 'a.task_id')
    .select(['a.id', 'a.description', 'a.rating', 'a.learning_outcome_id', 'a.task_definition_id', 'a.task_id'])
    .where('t.project_id', '=', project.id)
    .orderBy('a.id')
    .execute();
  const portfolioFiles = await portfolioParts(em, project.id);

  const unitEnd = String(unit.endDate);
  const row = project as unknown as { portfolioProductionDate: Date | null; compilePortfolio: boolean };
  return {
    id: project.id,
    campus_id: refId(project.campus),
    user_id: refId(project.user)!,
    unit: toUnitBrief(
      {
        id: unit.id,
        code: unit.code,
        name: unit.name,
        start_date: String(unit.startDate),
        end_date: unitEnd,
        active: unit.active,
        teaching_period_id: refId(unit.teachingPeriod),
      },
      viewer.unitRole,
    ),
    unit_id: unit.id,
    target_grade: project.targetGrade,
    submitted_grade: project.submittedGrade ?? null,
    portfolio_files: portfolioFiles,
    compile_portfolio: project.compilePortfolio,
    portfolio_available: portfolioAvailable({
      portfolio_production_date: row.portfolioProductionDate ? row.portfolioProductionDate.toISOString() : null,
      compile_portfolio: row.compilePortfolio,
    }),
    uses_draft_learning_summary: project.usesDraftLearningSummary,
    tasks: tasks.map(({ project_id, group_submission_id, task_stats, ...task }) => task),
    tutorial_enrolments: enrolments,
    groups,
    task_outcome_alignments: alignments.map((a) => ({ ...a, task_id: a.task_id! })),
  };
}

/** The id of a many-to-one reference (an entity, a reference or a bare id), or null. */
function refId(ref: unknown): number | null {
  if (ref === null || ref === undefined) return null;
  if (typeof ref === 'number') return ref;
  return (ref as { id: number }).id;
}
