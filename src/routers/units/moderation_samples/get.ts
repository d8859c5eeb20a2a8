import { canInUnit } from '../../../policy/index.ts';
import { forbidden } from '../../../lib/errors.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { findSample, itemRows, mayModerate, sampleRows } from '../../../operations/units/moderation_samples/moderation.ts';
import { sampleIdInput, sampleWithItemsOut } from './schemas.ts';

export const getSample = unitQuery(sampleIdInput, { action: 'provide_feedback', refused: 'Not authorised to see moderation samples of this unit' })
  .meta(
    route('GET', '/api/units/{unit_id}/moderation_samples/{id}', 'Moderation', 'A moderation sample and its sampled tasks', {
      description: "A convenor, or a moderator the sample names (else 403). Each task's assessment as it is now, and the moderator's verdict.",
    }),
  )
  .output(sampleWithItemsOut)
  .query(async ({ ctx, input }) => {
    // A second subject: the sample names its own moderators.
    const sample = await findSample(ctx.em, ctx.unit.id, input.id);
    if (!mayModerate(sample, { id: ctx.user.id, oversees: canInUnit(ctx.unitRole, 'oversee_marking') }))
      throw forbidden('Only a convenor or a moderator named on this sample may see it');
    const [row] = await sampleRows(ctx.em, ctx.unit.id, { sampleId: sample.id });
    return { ...row!, sampled: await itemRows(ctx.em, sample.id) };
  });
