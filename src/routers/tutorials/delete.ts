import { z } from 'zod';
import { Tutorial } from '../../../schema/index.ts';
import { authedMutation } from '../../trpc/core.ts';
import { requireInUnit } from '../../trpc/unit-access.ts';
import { findOr404 } from '../lookup.ts';
import { deleteTutorial as remove } from './operations.ts';
import { tutorialIdInput } from './schemas.ts';

export const deleteTutorial = authedMutation
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/tutorials/{id}',
      tags: ['Tutorials and tutorial streams'],
      summary: 'Delete a tutorial (unit Convenor, Admin)',
      description: 'Refused (400) while enrolled students or groups are in it.',
    },
    rest: { status: 204 },
  })
  .input(tutorialIdInput)
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const tutorial = await findOr404(ctx.em, Tutorial, input.id);
    const unitId = (tutorial.unit as unknown as { id: number }).id;
    await requireInUnit(ctx.em, ctx.user, unitId, { action: 'add_tutorial', refused: 'Cannot delete tutorial - not authorised' });
    await remove(ctx.em, tutorial);
    return true as const;
  });
