import { unitMutation } from '../../../trpc/scopes/index.ts';
import { route } from '../../../trpc/route.ts';
import { findStream, updateTutorialStream as updateStream } from '../../../operations/units/tutorial_streams/change-streams.ts';
import { streamById } from '../../../operations/units/tutorial_streams/stream-rows.ts';
import { updateTutorialStreamInput, wrappedTutorialStreamOut } from './schemas.ts';

export const updateTutorialStream = unitMutation(updateTutorialStreamInput, {
  action: 'add_tutorial',
  refused: 'Not authorised to update tutorial stream in this unit',
})
  .meta(
    route(
      'PUT',
      '/api/units/{unit_id}/tutorial_streams/{tutorial_stream_abbr}',
      'Tutorials and tutorial streams',
      'Rename a tutorial stream or change its activity type (unit Convenor, Admin)',
      {
        description:
          'All fields optional. Names and abbreviations are unique within the unit (400). `activity_type` is taken as another name for `activity_type_abbr`.',
      },
    ),
  )
  .output(wrappedTutorialStreamOut)
  .mutation(async ({ ctx, input }) => {
    const stream = await findStream(ctx.em, ctx.unit.id, input.tutorial_stream_abbr);
    await updateStream(ctx.em, stream, {
      name: input.name,
      abbreviation: input.abbreviation,
      activityTypeAbbr: input.activity_type_abbr ?? input.activity_type,
    });
    return { tutorial_stream: (await streamById(ctx.em, stream.id))! };
  });
