import { route } from '../../../../../trpc/route.ts';
import { db } from '../../../../../db/kysely.ts';
import { storageKeys } from '../../../../../storage/index.ts';
import { fileResult, type FileResult } from '../../../../../trpc/files.ts';
import { notFound } from '../../../../../trpc/errors.ts';
import { commentMutation } from '../../../../../trpc/scopes/index.ts';
import { serveAudio } from '../../../../../operations/projects/task_def_id/comments/discussion_comment/audio-files.ts';
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
  .query(async ({ ctx, input }): Promise<FileResult> => {
    const { comment } = ctx;
    const row = await db(ctx.em).selectFrom('task_comments').select('discussion_prompt_count').where('id', '=', comment.id).executeTakeFirstOrThrow();
    if (input.number > (row.discussion_prompt_count ?? 0)) throw notFound('Unable to find requested prompt');
    await db(ctx.em)
      .updateTable('task_comments')
      .set({ discussion_started_at: ctx.clock.now().toISOString() })
      .where('id', '=', comment.id)
      .where('discussion_started_at', 'is', null)
      .execute();
    return serveAudio(ctx.storage, storageKeys.discussionPrompt(comment.id, input.number), `discussion-${comment.id}-prompt-${input.number}`);
  });
