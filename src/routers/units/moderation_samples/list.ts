import { z } from 'zod';
import { canInUnit } from '../../../policy/index.ts';
import { route } from '../../../trpc/route.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { sampleRows } from '../../../operations/units/moderation_samples/moderation.ts';
import { sampleOut, unitIdInput } from './schemas.ts';

export const listSamples = unitQuery(unitIdInput, { action: 'provide_feedback', refused: 'Not authorised to see moderation samples of this unit' })
  .meta(
    route('GET', '/api/units/{unit_id}/moderation_samples', 'Moderation', "The unit's moderation samples", {
      description: 'A convenor sees all of them; other staff those that name them as moderator. Newest first.',
    }),
  )
  .output(z.array(sampleOut))
  .query(({ ctx }) => sampleRows(ctx.em, ctx.unit.id, canInUnit(ctx.unitRole, 'oversee_marking') ? {} : { moderatorId: ctx.user.id }));
