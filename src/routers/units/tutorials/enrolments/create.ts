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
          "The new tutorial replaces the project's tutorial in its stream; students may change only when the unit allows it, and not into a " +
          'full tutorial. Answers every enrolment of the project. See docs/api/units.md.',
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
