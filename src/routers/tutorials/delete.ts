import { z } from 'zod';
import { route } from '../../trpc/route.ts';
import { Tutorial } from '../../../schema/index.ts';
import { unitMutation } from '../../trpc/scopes/index.ts';
import { deleteTutorial as remove } from '../../operations/tutorials/change-tutorials.ts';
import { tutorialIdInput } from './schemas.ts';

export const deleteTutorial = unitMutation(tutorialIdInput, {
  unitOf: Tutorial,
  action: 'add_tutorial',
  refused: 'Cannot delete tutorial - not authorised',
})
  .meta(
    route('DELETE', '/api/tutorials/{id}', 'Tutorials and tutorial streams', 'Delete a tutorial (unit Convenor, Admin)', {
      description: 'Refused (400) while enrolled students or groups are in it.',
      rest: { status: 204 },
    }),
  )
  .output(z.literal(true))
  .mutation(async ({ ctx }) => {
    await remove(ctx.em, ctx.record);
    return true as const;
  });
