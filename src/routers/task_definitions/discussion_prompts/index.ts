import { router } from '../../../trpc/core.ts';
import { createDiscussionPrompt } from './create.ts';
import { deleteDiscussionPrompt } from './delete.ts';
import { listDiscussionPrompts } from './list.ts';
import { updateDiscussionPrompt } from './update.ts';

// /api/task_definitions/{td_id}/discussion_prompts and .../{id} (docs/discussion-prompts.md);
// GET /api/projects/{project_id}/discussion_prompts is src/routers/projects/discussion_prompts/.
export const discussionPromptsRouter = router({
  list: listDiscussionPrompts,
  create: createDiscussionPrompt,
  update: updateDiscussionPrompt,
  delete: deleteDiscussionPrompt,
});
