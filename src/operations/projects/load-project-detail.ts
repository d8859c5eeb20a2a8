// A project's dashboard: its tasks, tutorial enrolments, groups and the student's outcome
// alignments, one query each whatever their number.
import { sql } from 'kysely';
import { z } from 'zod';
import type { IProject, IUnit } from '../../../schema/index.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { refId, refIdOrNull } from '../../db/refs.ts';
import { loadProjectTasks, projectTaskOut } from './load-project-tasks.ts';
import { portfolioParts } from '../submission/project/portfolio/portfolio-parts.ts';
import { toUnitBrief, unitBriefOut } from '../unit_roles/unit-brief.ts';
import { portfolioAvailable } from '../../domain/portfolio.ts';
import { canInTask, roleInUnit, type ProjectRole } from '../../policy/index.ts';
import type { SystemRole } from '../../../schema/enums.ts';

export const groupOut = z.object({
  id: z.number().int(),
  name: z.string(),
  tutorial_id: z.number().int(),
  group_set_id: z.number().int(),
  student_count: z.number().int(),
  capacity_adjustment: z.number().int(),
  locked: z.boolean(),
});

/** A project as its student (or their tutor) opens it: the student's dashboard. */
export const projectDetailOut = z.object({
  id: z.number().int(),
  campus_id: z.number().int().nullable(),
  user_id: z.number().int(),
  unit: unitBriefOut,
  unit_id: z.number().int(),
  target_grade: z.number().int(),
  submitted_grade: z.number().int().nullable(),
  portfolio_files: z.array(z.object({ kind: z.string(), name: z.string(), idx: z.number().int() })),
  compile_portfolio: z.boolean(),
  portfolio_available: z.boolean(),
  uses_draft_learning_summary: z.boolean(),
  tasks: z.array(projectTaskOut),
  tutorial_enrolments: z.array(z.object({ project_id: z.number().int(), tutorial_id: z.number().int() })),
  groups: z.array(groupOut),
  task_outcome_alignments: z.array(
    z.object({
      id: z.number().int(),
      description: z.string().nullable(),
      rating: z.number().int(),
      learning_outcome_id: z.number().int(),
      task_definition_id: z.number().int(),
      task_id: z.number().int(),
    }),
  ),
});
export type ProjectDetailOut = z.infer<typeof projectDetailOut>;

export interface DetailViewer {
  user: { id: number; systemRole: SystemRole };
  /** The viewer's role in the project (student, or the unit's staff). */
  projectRole: ProjectRole;
}

/** The dashboard as the viewer sees it: `unit.my_role` is their role in the unit, similarity flags for staff only. */
export async function loadProjectDetail(em: Em, project: IProject, unit: IUnit, viewer: DetailViewer): Promise<ProjectDetailOut> {
  const k = db(em);
  const unitRole = (await roleInUnit(em, viewer.user, unit.id)) ?? viewer.projectRole;
  const seesSimilarity = canInTask(viewer.projectRole, 'view_plagiarism', unit);
  const tasks = await loadProjectTasks(em, { projectId: project.id }, { userId: viewer.user.id, seesSimilarity });
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
    campus_id: refIdOrNull(project.campus),
    user_id: refId(project.user),
    unit: toUnitBrief(
      {
        id: unit.id,
        code: unit.code,
        name: unit.name,
        start_date: String(unit.startDate),
        end_date: unitEnd,
        active: unit.active,
        teaching_period_id: refIdOrNull(unit.teachingPeriod),
      },
      unitRole,
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
