import { storageKeys } from '../../../../../storage/index.ts';
import { fileResult, type FileResult } from '../../../../../trpc/files.ts';
import { taskQuery } from '../../../../../trpc/scoped.ts';
import { findDiscussion, serveAudio } from './audio.ts';
import { discussionInput } from './schemas.ts';

export const discussionResponse = taskQuery(discussionInput, {
  task: 'get_discussion',
  refused: 'Not authorised to get this discussion comment',
  projectField: 'project_id',
})
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/projects/{project_id}/task_def_id/{task_definition_id}/comments/{task_comment_id}/discussion_comment/response',
      tags: ['Projects, submissions, comments'],
      summary: "The student's recorded reply to a discussion",
      description: 'The student or staff of the unit. The reply as uploaded, with `Range` support (206). 404 "File missing" before the student has replied.',
    },
    rest: { file: true },
  })
  .output(fileResult())
  .query(async ({ ctx, input }): Promise<FileResult> => {
    const comment = await findDiscussion(ctx.em, ctx.taskId, input.task_comment_id);
    return serveAudio(ctx.storage, storageKeys.discussionReply(comment.id), `discussion-${comment.id}-reply`);
  });
