import { z } from 'zod';
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { deleteTutorialStream as deleteStream, findStream } from '../../../operations/units/tutorial_streams/change-streams.ts';
import { tutorialStreamPathInput } from './schemas.ts';

export const deleteTutorialStream = unitMutation(tutorialStreamPathInput, {
  action: 'add_tutorial',
  refused: 'Not authorised to delete tutorial stream in this unit',
})
  .meta(
    route(
      'DELETE',
      '/api/units/{unit_id}/tutorial_streams/{tutorial_stream_abbr}',
      'Tutorials and tutorial streams',
      'Delete a tutorial stream and its tutorials (unit Convenor, Admin)',
      {
        description:
          'Refused (400) while one of its tutorials has enrolled students or groups. Its task definitions move to the other stream when the ' +
          'unit has two, lose their stream when it is the only one, and keep it from being deleted when there are more (403). Answers ' +
          '`true`, which the web client reads.',
        rest: { status: 200 },
      },
    ),
  )
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    await deleteStream(ctx.em, await findStream(ctx.em, ctx.unit.id, input.tutorial_stream_abbr));
    return true as const;
  });
