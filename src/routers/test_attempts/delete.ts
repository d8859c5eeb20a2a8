import { route } from '../../trpc/route.ts';
import { testAttemptMutation } from '../../trpc/scopes/index.ts';
import { deleteAttempt as remove } from '../../operations/test_attempts/delete-attempt.ts';
import { attemptIdInput, testAttemptOut } from './schemas.ts';

export const deleteAttempt = testAttemptMutation(attemptIdInput, {
  actions: ['delete_attempt'],
  refused: 'Not authorised to delete this scorm attempt',
})
  .meta(
    route('DELETE', '/api/test_attempts/{id}', 'Online tests', 'Delete a test attempt', {
      description: 'Staff of the unit. Its comment goes with it, and it no longer counts towards the attempts allowed. Answers the attempt as it was.',
      rest: { status: 200 },
    }),
  )
  .output(testAttemptOut)
  .mutation(({ ctx }) => remove(ctx.em, ctx.attempt.id));
