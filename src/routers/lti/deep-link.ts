import { sendDeepLinkingResponse } from '../../operations/lti/deep-linking-response.ts';
import { publicMutation } from '../../trpc/core.ts';
import { route } from '../../trpc/route.ts';
import { deepLinkInput, htmlOut } from './schemas.ts';

// Public: the page's single-use ticket, made by an Instructor's deep-linking launch, is the credential.
export const ltiDeepLink = publicMutation
  .meta(
    route('POST', '/api/lti/deep_link', 'LTI', "An Instructor's deep-linking choice: the signed LtiDeepLinkingResponse for the platform", {
      protect: false,
      description:
        'Form `ticket`, `task_definition_ids[]`. Answers a page that posts the signed response to the platform. ' +
        '400 for a used, unknown or expired ticket or a task of another unit. See docs/lti.md.',
      rest: { html: true, status: 200 },
    }),
  )
  .input(deepLinkInput)
  .output(htmlOut)
  .mutation(({ ctx, input }) =>
    sendDeepLinkingResponse(ctx.em, ctx.config, ctx.clock, { ticket: input.ticket, task_definition_ids: input.task_definition_ids ?? [] }),
  );
