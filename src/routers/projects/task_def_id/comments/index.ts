import { router } from '../../../../trpc/core.ts';
import { createComment } from './create.ts';
import { deleteComment } from './delete.ts';
import { discussionRouter } from './discussion/index.ts';
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
  discussion: discussionRouter,
});
