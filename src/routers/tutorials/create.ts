import { unitMutation } from '../../trpc/scopes/index.ts';
import { route } from '../../trpc/route.ts';
import { createTutorial as create } from '../../operations/tutorials/change-tutorials.ts';
import { tutorialById } from '../../operations/tutorials/tutorial-rows.ts';
import { createTutorialInput, tutorialOut } from './schemas.ts';

export const createTutorial = unitMutation(createTutorialInput, {
  field: (input) => input.tutorial.unit_id,
  action: 'add_tutorial',
  refused: 'Not authorised to create new tutorials',
})
  .meta(
    route('POST', '/api/tutorials', 'Tutorials and tutorial streams', 'Create a tutorial (unit Convenor, Admin)', {
      description:
        "Answers the new tutorial. `tutor_id` is a user id of the unit's staff (400 otherwise); `campus_id` -1 or null means no campus; " +
        '`tutorial_stream_abbr` names a stream of the unit (null: none). Abbreviations are unique within the unit (400).',
    }),
  )
  .output(tutorialOut)
  .mutation(async ({ ctx, input }) => {
    const t = input.tutorial;
    const tutorial = await create(ctx.em, ctx.unit.id, {
      tutorUserId: t.tutor_id,
      campusId: t.campus_id ?? null,
      streamAbbr: t.tutorial_stream_abbr ?? null,
      capacity: t.capacity,
      abbreviation: t.abbreviation,
      meetingDay: t.meeting_day,
      meetingTime: t.meeting_time,
      meetingLocation: t.meeting_location,
    });
    return (await tutorialById(ctx.em, tutorial.id))!;
  });
