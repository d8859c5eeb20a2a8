import { Campus, Project, type IProject, type IUnit } from '../../../schema/index.ts';
import type { ProjectStats } from '../../../schema/projects.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import { canInProject, canInUnit, roleInProject, roleInUnit, type ProjectAction } from '../../policy/index.ts';
import { authedMutation } from '../../trpc/core.ts';
import { badRequest, forbidden, notFound } from '../../trpc/errors.ts';
import { queuePortfolioCompile } from '../../pdf/portfolio-queue.ts';
import { findOr404 } from '../lookup.ts';
import { loadUnitStudents, parseJson } from '../students/load.ts';
import { studentProjectOut } from '../students/schemas.ts';
import { checkGroupsOnReenrolment, refreshProjectStats } from './operations.ts';
import { completeDiscussedTasks } from './week-end.ts';
import { portfolioAvailable, projectUpdatedOut, updateProjectInput, type ProjectUpdatedOut } from './schemas.ts';

// Each field needs its own permission, and one of them (enrolment) is a unit permission an Admin
// who is not staff holds, so the project is loaded here rather than through projectMutation,
// which would refuse that Admin before the field is known. The rules still come from src/policy.
export const updateProject = authedMutation
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
  .input(updateProjectInput)
  .output(projectUpdatedOut.or(studentProjectOut))
  .mutation(async ({ ctx, input }) => {
    const project = await ctx.em.findOne(Project, { id: input.id }, { populate: ['unit'] });
    if (!project) throw notFound('Unable to find requested Project');
    const unit = project.unit as unknown as IUnit;
    const projectRole = await roleInProject(ctx.em, ctx.user, { userId: refId(project.user), unitId: unit.id });
    const require = (action: ProjectAction, message: string) => {
      if (!canInProject(projectRole, action, unit)) throw forbidden(message);
    };
    const cannotChange = `You do not have permissions to change Project with id=${project.id}`;

    if (input.trigger !== undefined) {
      if (input.trigger !== 'trigger_week_end') throw forbidden(`Invalid trigger - ${input.trigger} unknown`);
      require('trigger_week_end', `You are not authorised to perform this action for Project with id=${project.id}`);
      await completeDiscussedTasks(ctx.em, project.id, ctx.user.id, ctx.clock.now());
      return summary(project);
    }

    if (input.campus_id !== undefined) {
      require('change_campus', `You do not have permissions to change the campus of Project with id=${project.id}`);
      const campusId = input.campus_id === null || input.campus_id === -1 ? null : (await findOr404(ctx.em, Campus, input.campus_id)).id;
      if (campusId !== null && project.enrolled && (await tutorialsElsewhere(ctx.em, project.id, campusId))) {
        throw badRequest('Campus does not match with tutorial enrolments.');
      }
      ctx.em.assign(project, { campus: campusId });
      await ctx.em.flush();
      return withEnrolment(ctx.em, project);
    }
    if (input.enrolled !== undefined) {
      const unitRole = await roleInUnit(ctx.em, ctx.user, unit.id);
      if (!canInUnit(unitRole, 'change_project_enrolment')) throw forbidden(`You cannot change the enrolment for project ${project.id}`);
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
      require('change', cannotChange);
      project.targetGrade = input.target_grade;
      await ctx.em.flush();
      await refreshProjectStats(ctx.em, [project.id]);
      return summary(project);
    }
    if (input.submitted_grade !== undefined) {
      require('change', cannotChange);
      if (project.portfolioProductionDate) throw forbidden('You cannot change your submitted grade after portfolio submission');
      project.submittedGrade = input.submitted_grade;
      await ctx.em.flush();
      return summary(project);
    }
    if (input.grade !== undefined) {
      require('assess', `You do not have permissions to assess Project with id=${project.id}`);
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
    require('change', cannotChange);
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
