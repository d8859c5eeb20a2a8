import { route } from '../../trpc/route.ts';
import { testAttemptQuery } from '../../trpc/scopes/index.ts';
import { reviewAttempt as review } from '../../operations/test_attempts/review-attempt.ts';
import { attemptIdInput, testAttemptOut } from './schemas.ts';

export const reviewAttempt = testAttemptQuery(attemptIdInput, {
  actions: ['review_other_attempt', 'review_own_attempt'],
  refused: 'Not authorised to review this scorm attempt',
})
  .meta(
    route('GET', '/api/test_attempts/{id}/review', 'Online tests', 'A test attempt in review mode', {
      description:
        'Staff of the unit, or the student once the attempt is ended and completed where the definition allows review (else 403). The data model answers cmi.mode "review". See docs/online-tests.md.',
    }),
  )
  .output(testAttemptOut)
  .query(({ ctx }) => review(ctx.em, ctx.attempt.id, { role: ctx.projectRole }, ctx.definition));
