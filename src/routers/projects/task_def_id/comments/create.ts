import { route } from '../../../../trpc/route.ts';
import { sql } from 'kysely';
import { TRPCError } from '@trpc/server';
import { db } from '../../../../db/kysely.ts';
import { ATTACHMENT_TEXT, attachmentKind, checkTextComment, MAX_ATTACHMENT_BYTES, type AttachmentKind } from '../../../../domain/comment-attachments.ts';
import { checkPdf, detectType } from '../../../../lib/file-kinds.ts';
import { canInProject, roleInProject } from '../../../../policy/index.ts';
import { storageKeys } from '../../../../storage/index.ts';
import type { UploadedFile } from '../../../../trpc/files.ts';
import { badRequest, forbidden, notFound } from '../../../../trpc/errors.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import type { Em } from '../../../../db/orm.ts';
import { insertComments } from '../../../../operations/tasks/comments.ts';
import { tutorFor } from '../../../../operations/tasks/people.ts';
import { ensureTask } from '../../../../operations/tasks/tasks.ts';
import { createCommentInput } from './schemas.ts';
import { commentOut, serializeComment } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';

const NOT_ACCEPTED = 'Please upload only images, audio or PDF documents';

/** What an attachment is, by its bytes; refused unless an image, a whole PDF, or audio or video. */
async function classify(file: UploadedFile): Promise<{ kind: AttachmentKind; mime: string; ext: string }> {
  if (file.size === 0) throw badRequest('Attachment is empty.');
  if (file.size >= MAX_ATTACHMENT_BYTES) {
    throw new TRPCError({ code: 'PAYLOAD_TOO_LARGE', message: 'Attachment exceeds the maximum attachment size of 30MB.' });
  }
  const type = await detectType(file.path);
  const kind = type ? attachmentKind(type.mime) : null;
  if (!type || !kind) throw forbidden(NOT_ACCEPTED);
  if (kind === 'pdf' && !(await checkPdf(file.path)).ok) throw forbidden(NOT_ACCEPTED);
  return { kind, mime: type.mime, ext: type.ext };
}

/** A reply must answer a comment the caller may read, on this task (or its group submission). */
async function checkReplyTo(em: Em, user: { id: number }, replyToId: number, taskId: number): Promise<void> {
  const found = await sql<{ user_id: number; unit_id: number; same_task: boolean }>`
    select p.user_id, p.unit_id,
           (t.id = me.id or (me.group_submission_id is not null and t.group_submission_id = me.group_submission_id)) as same_task
    from task_comments c
    join tasks t on t.id = c.task_id
    join projects p on p.id = t.project_id
    join tasks me on me.id = ${taskId}
    where c.id = ${replyToId}`.execute(db(em));
  const original = found.rows[0];
  if (!original) throw notFound('Unable to find requested Comment');
  if (!original.same_task) {
    const role = await roleInProject(em, user, { userId: original.user_id, unitId: original.unit_id });
    if (!canInProject(role, 'get', { allowStudentChangeTutorial: false })) throw forbidden('You do not have permission to read the replied comment');
    throw notFound('Original comment is not in this task.');
  }
}

export const createComment = taskMutation(createCommentInput, {
  project: 'make_submission',
  refused: 'Not authorised to create a comment for this task',
  projectField: 'project_id',
})
  .meta(
    route(
      'POST',
      '/api/projects/{project_id}/task_def_id/{task_definition_id}/comments',
      'Projects, submissions, comments',
      'Comment on a task, with text or an attachment',
      {
        description: 'The student or staff of the unit; multipart (as the web client sends it) or JSON. See docs/api/projects.md.',
        rest: { upload: { maxBytes: MAX_ATTACHMENT_BYTES } },
      },
    ),
  )
  .output(commentOut)
  .mutation(async ({ ctx, input }) => {
    const { em, project, definition } = ctx;
    const now = ctx.clock.now();
    // The file is checked before anything is written.
    const attachment = input.attachment ? await classify(input.attachment) : null;
    const taskId = ctx.taskId ?? (await ensureTask(em, project.id, definition.id, now));
    if (input.reply_to_id !== undefined) await checkReplyTo(em, ctx.user, input.reply_to_id, taskId);

    let text: string;
    if (attachment) {
      text = ATTACHMENT_TEXT[attachment.kind];
    } else {
      const last = await db(em)
        .selectFrom('task_comments')
        .select(['author_id', 'comment'])
        .where('task_id', '=', taskId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      const check = checkTextComment(input.comment, last ? { authorId: last.author_id, comment: last.comment } : null, ctx.user.id);
      if (!check.ok) throw check.status === 400 ? badRequest(check.message) : forbidden(check.message);
      text = check.text;
    }

    // The student's own comment goes to their tutor for the task; staff's to the student.
    const studentId = (project.user as unknown as { id: number }).id;
    const recipientId = ctx.user.id === studentId ? await tutorFor(em, project.id, definition.id) : studentId;
    const [id] = await insertComments(
      em,
      [{ taskId, authorId: ctx.user.id, recipientId, kind: attachment?.kind ?? 'text', comment: text, replyToId: input.reply_to_id ?? null }],
      now,
    );
    if (attachment) {
      const key = storageKeys.commentAttachment(id, attachment.ext);
      await db(em).updateTable('task_comments').set({ attachment_path: key, attachment_content_type: attachment.mime }).where('id', '=', id).execute();
      const out = await serializeComment(em, id, ctx.user.id);
      // Stored last: any failure before this leaves neither row nor file. (Should the commit itself
      // fail, the file stays under an id no row will ever take again.)
      await ctx.storage.put(key, { path: input.attachment!.path });
      return out;
    }
    return serializeComment(em, id, ctx.user.id);
  });
