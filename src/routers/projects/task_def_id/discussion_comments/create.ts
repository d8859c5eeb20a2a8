import { route } from '../../../../trpc/route.ts';
import { db } from '../../../../db/kysely.ts';
import { MAX_ATTACHMENT_BYTES } from '../../../../domain/comment-attachments.ts';
import { storageKeys } from '../../../../storage/index.ts';
import { badRequest } from '../../../../trpc/errors.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { insertComments } from '../../../../operations/tasks/comments.ts';
import { ensureTask } from '../../../../operations/tasks/tasks.ts';
import { commentOut, serializeComment } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';
import { checkAudio } from '../../../../operations/projects/task_def_id/comments/discussion_comment/audio-files.ts';
import { createDiscussionInput } from './schemas.ts';

/** Ten prompts of 30 MB and their framing. */
const UPLOAD_BYTES = 10 * MAX_ATTACHMENT_BYTES + 1_000_000;

export const createDiscussion = taskMutation(createDiscussionInput, {
  task: 'create_discussion',
  refused: 'Not authorised to create a discussion comment',
  projectField: 'project_id',
})
  .meta(
    route(
      'POST',
      '/api/projects/{project_id}/task_def_id/{task_definition_id}/discussion_comments',
      'Projects, submissions, comments',
      'Start an audio discussion with the student',
      {
        description:
          'Staff of the unit. Multipart `attachments[]` (or repeated `attachments`): one or more audio prompts, each ' +
          'judged audio by its content (403 "Please upload only audio files"), non-empty (400) and under 30,000,000 ' +
          'bytes (413). See docs/api/projects.md.',
        rest: { upload: { maxBytes: UPLOAD_BYTES } },
      },
    ),
  )
  .output(commentOut)
  .mutation(async ({ ctx, input }) => {
    const { em, project, definition } = ctx;
    const files = input.attachments ?? [];
    if (files.length === 0) throw badRequest('attachments is missing');
    for (const file of files) await checkAudio(file);
    const now = ctx.clock.now();
    const taskId = ctx.taskId ?? (await ensureTask(em, project.id, definition.id, now));
    const studentId = (project.user as unknown as { id: number }).id;
    const [id] = await insertComments(em, [{ taskId, authorId: ctx.user.id, recipientId: studentId, kind: 'discussion', comment: null }], now);
    await db(em).updateTable('task_comments').set({ discussion_prompt_count: files.length }).where('id', '=', id).execute();
    const out = await serializeComment(em, id, ctx.user.id);
    // Stored last, so a refused file leaves nothing behind.
    for (const [i, file] of files.entries()) await ctx.storage.put(storageKeys.discussionPrompt(id, i + 1), { path: file.path });
    return out;
  });
