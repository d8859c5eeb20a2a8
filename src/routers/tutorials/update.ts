import { Tutorial } from '../../../schema/index.ts';
import { route } from '../../trpc/route.ts';
import { badRequest } from '../../lib/errors.ts';
import { unitMutation } from '../../trpc/scopes/index.ts';
import { updateTutorial as update } from '../../operations/tutorials/change-tutorials.ts';
import { tutorialById } from '../../operations/tutorials/tutorial-rows.ts';
import { tutorialOut, updateTutorialInput } from './schemas.ts';

export const updateTutorial = unitMutation(updateTutorialInput, {
  unitOf: Tutorial,
  action: 'add_tutorial',
  refused: (id) => `Cannot update tutorial with id=${id} - not authorised`,
})
  .meta(
    route('PUT', '/api/tutorials/{id}', 'Tutorials and tutorial streams', 'Change a tutorial (unit Convenor, Admin)', {
      description: "Changes only the fields sent. `unit_id` may be sent but must be the tutorial's unit. A tutorial with enrolments keeps its stream (400).",
    }),
  )
  .output(tutorialOut)
  .mutation(async ({ ctx, input }) => {
    const { record: tutorial, unit } = ctx;
    const t = input.tutorial;
    if (t.unit_id !== undefined && t.unit_id !== unit.id) throw badRequest('A tutorial cannot move to another unit');
    await update(ctx.em, tutorial, {
      tutorUserId: t.tutor_id,
      campusId: t.campus_id,
      streamAbbr: t.tutorial_stream_abbr,
      capacity: t.capacity,
      abbreviation: t.abbreviation,
      meetingDay: t.meeting_day,
      meetingTime: t.meeting_time,
      meetingLocation: t.meeting_location,
    });
    return (await tutorialById(ctx.em, tutorial.id))!;
  });
