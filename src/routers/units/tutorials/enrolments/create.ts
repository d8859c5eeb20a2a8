import { authedMutation } from '../../../../trpc/core.ts';
import { enrolInTutorial } from './operations.ts';
import { enrolmentsOut, tutorialEnrolmentInput } from './schemas.ts';
import { loadTutorialChange } from './scope.ts';

export const createTutorialEnrolment = authedMutation
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/units/{unit_id}/tutorials/{tutorial_abbr}/enrolments/{project_id}',
      tags: ['Tutorials and tutorial streams'],
      summary: "Enrol a student's project in a tutorial (unit staff; the student when the unit allows it)",
      description:
        "The project must be enrolled in the unit (404). Staff may always change it; its student only while the unit's `allow_student_change_tutorial` is on (403). The new tutorial replaces the project's tutorial in the same stream (a tutorial with no stream replaces them all). A full tutorial (capacity above 0 reached by enrolled students) refuses students (403); staff may exceed it. A tutorial on another campus than the project's is a 400. Leaving a tutorial leaves its groups whose set keeps groups in one class, when students may manage them (otherwise 400). Answers every enrolment of the project.",
    },
  })
  .input(tutorialEnrolmentInput)
  .output(enrolmentsOut)
  .mutation(async ({ ctx, input }) => {
    const change = await loadTutorialChange(ctx.em, ctx.user, input, { refused: 'Not authorised to change tutorial', enrolledOnly: true });
    const enrolments = await enrolInTutorial(ctx.em, {
      projectId: change.project.id,
      tutorialId: change.tutorial.id,
      mayExceedCapacity: change.mayExceedCapacity,
    });
    return { enrolments };
  });
