// PUT /api/projects/{id}: only the first field present, in the order below, is applied (as the
// original does), each by its own operation. docs/api/projects.md describes each case.
import { z } from 'zod';
import { Campus, type IProject } from '../../../schema/index.ts';
import type { ProjectStats } from '../../../schema/projects.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { portfolioAvailable } from '../../domain/portfolio.ts';
import type { JobQueue } from '../../db/jobs.ts';
import { queuePortfolioCompile } from '../../pdf/portfolio-queue.ts';
import { loadUnitStudents, parseJson } from '../students/load-unit-students.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { completeDiscussedTasks } from './complete-discussed-tasks.ts';
import { checkGroupsOnReenrolment } from './enrol-projects.ts';
import { refreshProjectStats } from './refresh-project-stats.ts';

export const projectUpdatedOut = z.object({
  campus_id: z.number().int().nullable(),
  target_grade: z.number().int(),
  submitted_grade: z.number().int().nullable(),
  compile_portfolio: z.boolean(),
  portfolio_available: z.boolean(),
  uses_draft_learning_summary: z.boolean(),
  /** Campus and enrolment changes only. */
  enrolled: z.boolean().optional(),
  /** Campus and enrolment changes only: the stored progress stats as a JSON string, as the original sends them. */
  stats: z.string().optional(),
});
export type ProjectUpdatedOut = z.infer<typeof projectUpdatedOut>;

/** The fields of the update; only the first one given (in this order) is applied. */
export interface ProjectFields {
  trigger?: string;
  campus_id?: number | null;
  enrolled?: boolean;
  target_grade?: number;
  submitted_grade?: number;
  grade?: number;
  old_grade?: number | null;
  grade_rationale?: string;
  compile_portfolio?: boolean;
}

/** A grade answers the student's record as `GET /api/students` lists it. */
export type StudentRecord = Awaited<ReturnType<typeof loadUnitStudents>>[number];

export interface ProjectUpdater {
  userId: number;
  unitId: number;
  jobs: JobQueue;
  now: Date;
}

/** Applies the first field given. The caller's right to change it is the scope's (projectChangeNeed). */
export async function updateProject(em: Em, project: IProject, by: ProjectUpdater, input: ProjectFields): Promise<ProjectUpdatedOut | StudentRecord> {
  if (input.trigger !== undefined) return triggerWeekEnd(em, project, by);
  if (input.campus_id !== undefined) return changeCampus(em, project, input.campus_id);
  if (input.enrolled !== undefined) return changeEnrolment(em, project, input.enrolled);
  if (input.target_grade !== undefined) return changeTargetGrade(em, project, input.target_grade);
  if (input.submitted_grade !== undefined) return changeSubmittedGrade(em, project, input.submitted_grade);
  if (input.grade !== undefined) return assessProject(em, project, by.unitId, { ...input, grade: input.grade });
  if (input.compile_portfolio !== undefined) return requestPortfolio(em, project, by.jobs, input.compile_portfolio);
  return summary(project);
}

/** Every discuss or demonstrate task of the project becomes complete. */
export async function triggerWeekEnd(em: Em, project: IProject, by: { userId: number; now: Date }): Promise<ProjectUpdatedOut> {
  await completeDiscussedTasks(em, project.id, by.userId, by.now);
  return summary(project);
}

/** Another campus (-1 or null for none); an enrolled student's tutorials must fit it. */
export async function changeCampus(em: Em, project: IProject, campus: number | null): Promise<ProjectUpdatedOut> {
  let campusId: number | null = null;
  if (campus !== null && campus !== -1) {
    const found = await em.findOne(Campus, { id: campus });
    if (!found) throw notFound('Unable to find requested Campus');
    campusId = found.id;
  }
  if (campusId !== null && project.enrolled && (await tutorialsElsewhere(em, project.id, campusId))) {
    throw badRequest('Campus does not match with tutorial enrolments.');
  }
  em.assign(project, { campus: campusId });
  await em.flush();
  return withEnrolment(em, project);
}

/** Enrols the student again (checking their groups) or withdraws them. */
export async function changeEnrolment(em: Em, project: IProject, enrolled: boolean): Promise<ProjectUpdatedOut> {
  if (enrolled && !project.enrolled) {
    project.enrolled = true;
    await em.flush();
    await checkGroupsOnReenrolment(em, [project.id]);
  } else if (!enrolled && project.enrolled) {
    // Tutorial enrolments and group memberships stay, for a student who comes back.
    project.enrolled = false;
    await em.flush();
  }
  return withEnrolment(em, project);
}

/** A new target grade; the progress stats are recomputed. */
export async function changeTargetGrade(em: Em, project: IProject, targetGrade: number): Promise<ProjectUpdatedOut> {
  project.targetGrade = targetGrade;
  await em.flush();
  await refreshProjectStats(em, [project.id]);
  return summary(project);
}

/** The grade the student submits for; locked once a portfolio exists. */
export async function changeSubmittedGrade(em: Em, project: IProject, submittedGrade: number): Promise<ProjectUpdatedOut> {
  if (project.portfolioProductionDate) throw forbidden('You cannot change your submitted grade after portfolio submission');
  project.submittedGrade = submittedGrade;
  await em.flush();
  return summary(project);
}

/** Staff's grade, with its rationale, given the grade the caller last saw. */
export async function assessProject(
  em: Em,
  project: IProject,
  unitId: number,
  input: { grade: number; old_grade?: number | null; grade_rationale?: string },
): Promise<StudentRecord> {
  if (input.grade_rationale === undefined) throw forbidden('Grade rationale required to perform assessment.');
  if (input.old_grade === undefined) throw forbidden('Existing project grade is required to perform assessment.');
  if ((input.old_grade ?? 0) !== project.grade) {
    throw forbidden('Existing project grade does not match current grade. Refresh project and try again.');
  }
  project.grade = input.grade;
  project.gradeRationale = input.grade_rationale;
  await em.flush();
  const [record] = await loadUnitStudents(em, unitId, { includeWithdrawn: true, projectIds: [project.id] });
  return record;
}

/** Asks for the portfolio to be compiled (queued in this transaction), or withdraws the request. */
export async function requestPortfolio(em: Em, project: IProject, jobs: JobQueue, compile: boolean): Promise<ProjectUpdatedOut> {
  project.compilePortfolio = compile;
  project.portfolioAutoGenerated = false;
  await em.flush();
  if (compile) await queuePortfolioCompile(jobs, project.id);
  return summary(project);
}

function refId(ref: unknown): number {
  return typeof ref === 'number' ? ref : (ref as { id: number }).id;
}

/** Is the project in a tutorial of another campus (a campus-less tutorial fits any)? */
async function tutorialsElsewhere(em: Em, projectId: number, campusId: number): Promise<boolean> {
  const row = await db(em)
    .selectFrom('tutorial_enrolments as e')
    .innerJoin('tutorials as t', 't.id', 'e.tutorial_id')
    .select('e.id')
    .where('e.project_id', '=', projectId)
    .where('t.campus_id', 'is not', null)
    .where('t.campus_id', '<>', campusId)
    .executeTakeFirst();
  return row !== undefined;
}

function summary(project: IProject): ProjectUpdatedOut {
  return {
    campus_id: project.campus ? refId(project.campus) : null,
    target_grade: project.targetGrade,
    submitted_grade: project.submittedGrade ?? null,
    compile_portfolio: project.compilePortfolio,
    portfolio_available: portfolioAvailable({
      portfolio_production_date: project.portfolioProductionDate ? new Date(project.portfolioProductionDate).toISOString() : null,
      compile_portfolio: project.compilePortfolio,
    }),
    uses_draft_learning_summary: project.usesDraftLearningSummary,
  };
}

async function withEnrolment(em: Em, project: IProject): Promise<ProjectUpdatedOut> {
  const row = await db(em).selectFrom('projects').select('task_stats').where('id', '=', project.id).executeTakeFirstOrThrow();
  return { ...summary(project), enrolled: project.enrolled, stats: JSON.stringify(parseJson<ProjectStats>(row.task_stats)) };
}
