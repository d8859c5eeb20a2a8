import { z } from 'zod';
import { authedMutation } from '../../../../trpc/core.ts';
import { leaveTutorial } from './operations.ts';
import { tutorialEnrolmentInput } from './schemas.ts';
import { loadTutorialChange } from './scope.ts';

export const deleteTutorialEnrolment = authedMutation
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/units/{unit_id}/tutorials/{tutorial_abbr}/enrolments/{project_id}',
      tags: ['Tutorials and tutorial streams'],
      summary: "Take a student's project out of a tutorial (unit staff; the student when the unit allows it)",
      description: 'Withdrawn projects too. 403 when the project is not in that tutorial. Groups tied to the tutorial are left as on a change of tutorial.',
    },
    rest: { status: 204 },
  })
  .input(tutorialEnrolmentInput)
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const change = await loadTutorialChange(ctx.em, ctx.user, input, { refused: 'Not authorised to change tutorials', enrolledOnly: false });
    await leaveTutorial(ctx.em, { projectId: change.project.id, tutorialId: change.tutorial.id });
    return true as const;
  });
