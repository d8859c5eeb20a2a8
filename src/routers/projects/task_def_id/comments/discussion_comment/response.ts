import { route } from '../../../../../trpc/route.ts';
import { storageKeys } from '../../../../../storage/index.ts';
import { fileResult, type FileResult } from '../../../../../lib/files.ts';
import { commentQuery } from '../../../../../trpc/scopes/index.ts';
import { serveAudio } from '../../../../../operations/projects/task_def_id/comments/discussion_comment/audio-files.ts';
import { discussionInput } from './schemas.ts';

export const discussionResponse = commentQuery(discussionInput, {
  task: 'get_discussion',
  refused: 'Not authorised to get this discussion comment',
  projectField: 'project_id',
  commentField: 'task_comment_id',
  discussion: true,
})
  .meta(
    route(
      'GET',
      '/api/projects/{project_id}/task_def_id/{task_definition_id}/comments/{task_comment_id}/discussion_comment/response',
      'Projects, submissions, comments',
      "The student's recorded reply to a discussion",
      {
        description:
          'The student or staff of the unit. The reply as uploaded, with `Range` support (206). 404 "File missing" ' + 'before the student has replied.',
        rest: { file: true },
      },
    ),
  )
  .output(fileResult())
  .query(async ({ ctx }): Promise<FileResult> => {
    const { comment } = ctx;
    return serveAudio(ctx.storage, storageKeys.discussionReply(comment.id), `discussion-${comment.id}-reply`);
  });
