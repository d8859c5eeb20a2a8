import { router } from '../../../../trpc/core.ts';
import { createDiscussion } from '../discussion_comments/create.ts';
import { createComment } from './create.ts';
import { deleteComment } from './delete.ts';
import { discussionPrompt } from './discussion_comment/prompt.ts';
import { discussionReply } from './discussion_comment/reply.ts';
import { discussionResponse } from './discussion_comment/response.ts';
import { downloadCommentAttachment } from './download.ts';
import { listComments } from './list.ts';
import { markCommentUnread } from './mark-unread.ts';

// /api/projects/{project_id}/task_def_id/{task_definition_id}/comments[/{id}]
export const commentsRouter = router({
  list: listComments,
  create: createComment,
  attachment: downloadCommentAttachment,
  markUnread: markCommentUnread,
  delete: deleteComment,
  // Audio discussions (beyond-spec.md §4.8): staff post prompts (.../discussion_comments), the
  // student records a reply (.../comments/{task_comment_id}/discussion_comment/...).
  discussion: router({
    create: createDiscussion,
    prompt: discussionPrompt,
    response: discussionResponse,
    reply: discussionReply,
  }),
});
