import { updateProject as applyProjectUpdate } from '../../operations/projects/update-project.ts';
import { projectChangeNeed } from '../../policy/index.ts';
import { route } from '../../trpc/route.ts';
import { projectMutation } from '../../trpc/scopes/index.ts';
import { studentProjectOut } from '../students/schemas.ts';
import { projectUpdatedOut, updateProjectInput, type UpdateProjectInput } from './schemas.ts';

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
  .meta(
    route('PUT', '/api/projects/{id}', 'Projects', "Change a project's campus, enrolment, target grade, submitted grade, grade or portfolio request", {
      description:
        'Only the first field present is applied, in this order: `trigger`, `campus_id`, `enrolled`, `target_grade`, ' +
        '`submitted_grade`, `grade`, `compile_portfolio`. See docs/api/projects.md.',
    }),
  )
  .output(projectUpdatedOut.or(studentProjectOut))
  .mutation(({ ctx, input }) =>
    applyProjectUpdate(ctx.em, ctx.project, { userId: ctx.user.id, unitId: ctx.unit.id, jobs: ctx.jobs, now: ctx.clock.now() }, input),
  );
