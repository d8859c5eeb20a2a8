import { canInUnit } from '../../../policy/index.ts';
import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { reviewItem } from '../../../operations/units/moderation_samples/moderation.ts';
import { itemOut, reviewItemInput } from './schemas.ts';

export const reviewSampleItem = unitMutation(reviewItemInput, { action: 'provide_feedback', refused: 'Not authorised to moderate in this unit' })
  .meta(
    route('PUT', '/api/units/{unit_id}/moderation_samples/{id}/items/{item_id}', 'Moderation', 'Agree or disagree with a sampled assessment', {
      description:
        'A convenor, or a moderator the sample names (else 403); never the assessor themself. A disagreement needs a `comment` (400). ' +
        'Reviewing again replaces the verdict.',
    }),
  )
  .output(itemOut)
  .mutation(({ ctx, input }) =>
    reviewItem(
      ctx.em,
      ctx.unit.id,
      { sampleId: input.id, itemId: input.item_id },
      { id: ctx.user.id, oversees: canInUnit(ctx.unitRole, 'oversee_marking') },
      { verdict: input.verdict, comment: input.comment },
      ctx.clock.now(),
    ),
  );
