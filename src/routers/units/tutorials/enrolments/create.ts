import { projectMutation } from '../../../../trpc/scopes/index.ts';
import { route } from '../../../../trpc/route.ts';
import { canInUnit, roleInUnit } from '../../../../policy/index.ts';
import { enrolInTutorial, tutorialByAbbreviation } from '../../../../operations/units/tutorials/enrolments/enrol-in-tutorial.ts';
import { enrolmentsOut, tutorialEnrolmentInput } from './schemas.ts';

export const createTutorialEnrolment = projectMutation(tutorialEnrolmentInput, {
  action: 'change_tutorial',
  refused: 'Not authorised to change tutorial',
  field: 'project_id',
  inUnit: 'unit_id',
  enrolledOnly: true,
})
  .meta(
    route(
      'POST',
      '/api/units/{unit_id}/tutorials/{tutorial_abbr}/enrolments/{project_id}',
      'Tutorials and tutorial streams',
      "Enrol a student's project in a tutorial (unit staff; the student when the unit allows it)",
      {
        description:
          "The project must be enrolled in the unit (404). Staff may always change it; its student only while the unit's `allow_student_change_tutorial` is on (403). The new tutorial replaces the project's tutorial in the same stream (a tutorial with no stream replaces them all). A full tutorial (capacity above 0 reached by enrolled students) refuses students (403); staff may exceed it. A tutorial on another campus than the project's is a 400. Leaving a tutorial leaves its groups whose set keeps groups in one class, when students may manage them (otherwise 400). Answers every enrolment of the project.",
      },
    ),
  )
  .output(enrolmentsOut)
  .mutation(async ({ ctx, input }) => {
    const tutorial = await tutorialByAbbreviation(ctx.em, ctx.unit.id, input.tutorial_abbr);
    const enrolments = await enrolInTutorial(ctx.em, {
      projectId: ctx.project.id,
      tutorialId: tutorial.id,
      // Staff may fill a tutorial past its capacity; a student may not.
      mayExceedCapacity: canInUnit(await roleInUnit(ctx.em, ctx.user, ctx.unit.id), 'exceed_capacity'),
    });
    return { enrolments };
  });
