import { router } from '../../../../../trpc/core.ts';
import { createDiscussion } from './create.ts';
import { discussionPrompt } from './prompt.ts';
import { discussionReply } from './reply.ts';
import { discussionResponse } from './response.ts';

// Audio discussions (beyond-spec.md §4.8): staff post prompts, the student records a reply.
export const discussionRouter = router({
  create: createDiscussion,
  prompt: discussionPrompt,
  response: discussionResponse,
  reply: discussionReply,
});
