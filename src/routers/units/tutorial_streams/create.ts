import { unitMutation } from '../../../trpc/scopes/index.ts';
import { route } from '../../../trpc/route.ts';
import { addTutorialStream } from '../../../operations/units/tutorial_streams/change-streams.ts';
import { streamById } from '../../../operations/units/tutorial_streams/stream-rows.ts';
import { createTutorialStreamInput, wrappedTutorialStreamOut } from './schemas.ts';

export const createTutorialStream = unitMutation(createTutorialStreamInput, {
  action: 'add_tutorial',
  refused: 'Not authorised to add tutorial stream to this unit',
})
  .meta(
    route(
      'POST',
      '/api/units/{unit_id}/tutorial_streams',
      'Tutorials and tutorial streams',
      'Add a tutorial stream of an activity type (unit Convenor, Admin)',
      {
        description:
          'Named and abbreviated after the activity type with the next free number ("Workshop 1", "wrkshop 1", then "Workshop 2"). The ' +
          "unit's first stream takes every task definition the unit already has. Unknown activity type: 404.",
      },
    ),
  )
  .output(wrappedTutorialStreamOut)
  .mutation(async ({ ctx, input }) => {
    const stream = await addTutorialStream(ctx.em, { unitId: ctx.unit.id, activityTypeAbbr: input.activity_type_abbr });
    return { tutorial_stream: (await streamById(ctx.em, stream.id))! };
  });
