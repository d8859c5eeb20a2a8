import { Campus, type IProject } from '../../../schema/index.ts';
import type { ProjectStats } from '../../../schema/projects.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { projectChangeNeed } from '../../policy/index.ts';
import { badRequest, forbidden } from '../../trpc/errors.ts';
import { queuePortfolioCompile } from '../../pdf/portfolio-queue.ts';
import { findOr404 } from '../../trpc/lookup.ts';
import { loadUnitStudents, parseJson } from '../../operations/students/load-unit-students.ts';
import { studentProjectOut } from '../students/schemas.ts';
import { checkGroupsOnReenrolment, refreshProjectStats } from './operations.ts';
import { completeDiscussedTasks } from './week-end.ts';
import { portfolioAvailable, projectUpdatedOut, updateProjectInput, type ProjectUpdatedOut, type UpdateProjectInput } from './schemas.ts';
import { projectMutation } from '../../trpc/scopes/index.ts';

/** The 403 of the field applied, when the caller may not change it (projectChangeNeed says who may). */
function changeRefused(id: number, input: UpdateProjectInput): string {
  if (input.trigger !== undefined) {
    return input.trigger === 'trigger_week_end'
      ? `You are not authorised to perform this action for Project with id=${id}`
      : `Invalid trigger - ${input.trigger} unknown`;
  }
  if (input.campus_id !== undefined) return `You do not have permissions to change the campus of Project with id=${id}`;
  if (input.enrolled !== undefined) return `You cannot change the enrolment for project ${id}`;
  if (input.target_grade === undefined && input.submitted_grade === undefined && input.grade !== undefined)
    return `You do not have permissions to assess Project with id=${id}`;
  return `You do not have permissions to change Project with id=${id}`;
}

// Each field needs its own permission, and one of them (enrolment) is a unit permission an Admin
// who is not staff holds: src/policy's projectChangeNeed names it, and the builder asks it.
export const updateProject = projectMutation(updateProjectInput, { action: projectChangeNeed, refused: changeRefused })
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/projects/{id}',
      tags: ['Projects'],
      summary: "Change a project's campus, enrolment, target grade, submitted grade, grade or portfolio request",
      description:
        'Only the first field present in this order is applied: `trigger` (staff; only `trigger_week_end`, which completes every discuss or demonstrate task of the project; any other word is refused), `campus_id` (staff; -1 or null for none), `enrolled` (unit convenor or Admin; false withdraws, keeping tutorials and groups), `target_grade` (0 to 3; the student or staff; the progress stats are recomputed), `submitted_grade` (the student or staff; refused once a portfolio exists), `grade` with `old_grade` and `grade_rationale` (staff), `compile_portfolio` (the student or staff; true queues the compile, after which `portfolio_available` is true and the submitted grade is locked). Answers the project summary; a grade answers the student record of `GET /api/students`.',
    },
  })
  .output(projectUpdatedOut.or(studentProjectOut))
  .mutation(async ({ ctx, input }) => {
    const { project, unit } = ctx;

    if (input.trigger !== undefined) {
      await completeDiscussedTasks(ctx.em, project.id, ctx.user.id, ctx.clock.now());
      return summary(project);
    }

    if (input.campus_id !== undefined) {
      const campusId = input.campus_id === null || input.campus_id === -1 ? null : (await findOr404(ctx.em, Campus, input.campus_id)).id;
      if (campusId !== null && project.enrolled && (await tutorialsElsewhere(ctx.em, project.id, campusId))) {
        throw badRequest('Campus does not match with tutorial enrolments.');
      }
      ctx.em.assign(project, { campus: campusId });
      await ctx.em.flush();
      return withEnrolment(ctx.em, project);
    }
    if (input.enrolled !== undefined) {
      if (input.enrolled && !project.enrolled) {
        project.enrolled = true;
        await ctx.em.flush();
        await checkGroupsOnReenrolment(ctx.em, [project.id]);
      } else if (!input.enrolled && project.enrolled) {
        // Tutorial enrolments and group memberships stay, for a student who comes back.
        project.enrolled = false;
        await ctx.em.flush();
      }
      return withEnrolment(ctx.em, project);
    }
    if (input.target_grade !== undefined) {
      project.targetGrade = input.target_grade;
      await ctx.em.flush();
      await refreshProjectStats(ctx.em, [project.id]);
      return summary(project);
    }
    if (input.submitted_grade !== undefined) {
      if (project.portfolioProductionDate) throw forbidden('You cannot change your submitted grade after portfolio submission');
      project.submittedGrade = input.submitted_grade;
      await ctx.em.flush();
      return summary(project);
    }
    if (input.grade !== undefined) {
      if (input.grade_rationale === undefined) throw forbidden('Grade rationale required to perform assessment.');
      if (input.old_grade === undefined) throw forbidden('Existing project grade is required to perform assessment.');
      if ((input.old_grade ?? 0) !== project.grade) {
        throw forbidden('Existing project grade does not match current grade. Refresh project and try again.');
      }
      project.grade = input.grade;
      project.gradeRationale = input.grade_rationale;
      await ctx.em.flush();
      const [record] = await loadUnitStudents(ctx.em, unit.id, { includeWithdrawn: true, projectIds: [project.id] });
      return record;
    }
    if (input.compile_portfolio !== undefined) {
      project.compilePortfolio = input.compile_portfolio;
      project.portfolioAutoGenerated = false;
      await ctx.em.flush();
      if (input.compile_portfolio) await queuePortfolioCompile(ctx.jobs, project.id);
    }
    return summary(project);
  });

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
