import { z } from 'zod';
import { route } from '../../../../trpc/route.ts';
import { projectMutation } from '../../../../trpc/scopes/index.ts';
import { leaveTutorial, tutorialByAbbreviation } from '../../../../operations/units/tutorials/enrolments/enrol-in-tutorial.ts';
import { tutorialEnrolmentInput } from './schemas.ts';

export const deleteTutorialEnrolment = projectMutation(tutorialEnrolmentInput, {
  action: 'change_tutorial',
  refused: 'Not authorised to change tutorials',
  field: 'project_id',
  inUnit: 'unit_id',
  enrolledOnly: false,
})
  .meta(
    route(
      'DELETE',
      '/api/units/{unit_id}/tutorials/{tutorial_abbr}/enrolments/{project_id}',
      'Tutorials and tutorial streams',
      "Take a student's project out of a tutorial (unit staff; the student when the unit allows it)",
      {
        description: 'Withdrawn projects too. 403 when the project is not in that tutorial. Groups tied to the tutorial are left as on a change of tutorial.',
        rest: { status: 204 },
      },
    ),
  )
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const tutorial = await tutorialByAbbreviation(ctx.em, ctx.unit.id, input.tutorial_abbr);
    await leaveTutorial(ctx.em, { projectId: ctx.project.id, tutorialId: tutorial.id });
    return true as const;
  });
