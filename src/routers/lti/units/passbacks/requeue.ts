import { requeuePassbacks as requeue } from '../../../../operations/lti/units/passbacks/passbacks.ts';
import { route } from '../../../../trpc/route.ts';
import { unitMutation } from '../../../../trpc/scopes/index.ts';
import { passbacksInput, requeuedOut } from './schemas.ts';

export const requeuePassbacks = unitMutation(passbacksInput, {
  action: 'manage_lti_grades',
  refused: 'You are not authorised to manage grade passback in this unit.',
})
  .meta(
    route('POST', '/api/lti/units/{unit_id}/passbacks', 'LTI', "Pass the unit's grades back to the LMS again", {
      description:
        'Queues the passback of every task under way (optionally of one `task_definition_id`, or only those in `state`, e.g. `failed`); each sends the current score. Unit Convenor or Admin.',
    }),
  )
  .output(requeuedOut)
  .mutation(({ ctx, input }) => requeue(ctx.em, ctx.config, ctx.unit.id, input, ctx.clock.now()));
