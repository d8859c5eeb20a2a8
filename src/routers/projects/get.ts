import { route } from '../../trpc/route.ts';
import { projectQuery } from '../../trpc/scopes/index.ts';
import { loadProjectDetail } from '../../operations/projects/load-project-detail.ts';
import { projectDetailOut, projectIdInput } from './schemas.ts';

export const getProject = projectQuery(projectIdInput, { action: 'get', refused: (id) => `Couldn't find Project with id=${id}` })
  .meta(
    route(
      'GET',
      '/api/projects/{id}',
      'Projects',
      'A project with its tasks, tutorial enrolments, groups and outcome alignments (its student, or staff of its unit)',
      {
        description:
          'Only tasks that exist are listed (a task is created when first worked on). `due_date` is the target date plus ' +
          'granted extensions, never past the deadline. `similarity_flag` is shown to staff only. Admins who are not ' +
          'staff of the unit are refused, as in the original.',
      },
    ),
  )
  .output(projectDetailOut)
  .query(({ ctx }) => loadProjectDetail(ctx.em, ctx.project, ctx.unit, { user: ctx.user, projectRole: ctx.projectRole }));
