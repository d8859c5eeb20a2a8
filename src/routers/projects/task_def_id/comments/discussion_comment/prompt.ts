import { route } from '../../../../../trpc/route.ts';
import { fileResult } from '../../../../../lib/files.ts';
import { commentMutation } from '../../../../../trpc/scopes/index.ts';
import { playPrompt } from '../../../../../operations/projects/task_def_id/comments/discussion_comment/play-prompt.ts';
import { promptInput } from './schemas.ts';

// A GET that writes: playing the first prompt is what starts the discussion.
export const discussionPrompt = commentMutation(promptInput, {
  task: 'get_discussion',
  refused: 'Not authorised to get this discussion comment',
  projectField: 'project_id',
  commentField: 'task_comment_id',
  discussion: true,
})
  .meta(
    route(
      'GET',
      '/api/projects/{project_id}/task_def_id/{task_definition_id}/comments/{task_comment_id}/discussion_comment/prompt_number/{number}',
      'Projects, submissions, comments',
      "One of a discussion's audio prompts",
      {
        description:
          'The student or staff of the unit. The n-th prompt (from 1) as uploaded, with `Range` support (206). The first ' +
          'time any prompt is fetched the discussion counts as started (`status` "opened"). 404 for other comments, a ' +
          'number beyond the prompts, or "File missing".',
        rest: { file: true },
      },
    ),
  )
  .output(fileResult())
  .query(({ ctx, input }) => playPrompt(ctx.em, { storage: ctx.storage, now: ctx.clock.now() }, ctx.comment.id, input.number));
