import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { drawSample } from '../../../operations/units/moderation_samples/moderation.ts';
import { drawSampleInput, sampleOut } from './schemas.ts';

export const createSample = unitMutation(drawSampleInput, { action: 'oversee_marking', refused: 'Only a convenor of the unit may draw a moderation sample' })
  .meta(
    route('POST', '/api/units/{unit_id}/moderation_samples', 'Moderation', "Draw a moderation sample of each tutor's completed assessments", {
      description:
        "ceil(percent%) of each assessor's completed tasks of the definition, at random, fixed once drawn; a later draw takes only tasks not " +
        'sampled yet (400 when none are left). See docs/marking/notes-moderation-escalation.md.',
    }),
  )
  .output(sampleOut)
  .mutation(({ ctx, input }) => drawSample(ctx.em, ctx.unit.id, input, ctx.user.id, ctx.clock.now()));
