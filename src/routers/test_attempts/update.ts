import { route } from '../../trpc/route.ts';
import { testAttemptMutation } from '../../trpc/scopes/index.ts';
import { overrides, updateAttempt as update } from '../../operations/test_attempts/update-attempt.ts';
import { testAttemptOut, updateAttemptInput } from './schemas.ts';

export const updateAttempt = testAttemptMutation(updateAttemptInput, {
  actions: (input) => [overrides(input) ? 'override_success_status' : 'update_attempt'],
  refused: (input) =>
    overrides(input) ? 'Not authorised to override the success status of this scorm attempt' : 'Not authorised to update this scorm attempt',
})
  .meta(
    route('PATCH', '/api/test_attempts/{id}', 'Online tests', 'Commit to, end, resume or override a test attempt', {
      description:
        "The student commits `cmi_datamodel` and ends the attempt with `terminated` (an ended attempt takes no more: 400); no field at all answers the attempt as it is (the player's resume). " +
        'Staff override the result with `success_status`. A data model that is not valid SCORM 2004 gets 400 naming the element, one too large 413. See docs/online-tests.md.',
    }),
  )
  .output(testAttemptOut)
  .mutation(({ ctx, input }) => update(ctx.em, ctx.attempt.id, { userId: ctx.user.id, role: ctx.projectRole }, input, ctx.clock.now()));
