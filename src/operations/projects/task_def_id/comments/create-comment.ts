// POST .../comments: a comment on a student's task, with text or an attachment.
import { sql } from 'kysely';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { ATTACHMENT_TEXT, attachmentKind, checkTextComment, MAX_ATTACHMENT_BYTES, type AttachmentKind } from '../../../../domain/comment-attachments.ts';
import { checkPdf, detectType } from '../../../../lib/file-kinds.ts';
import { canInProject, roleInProject } from '../../../../policy/index.ts';
import { storageKeys, type Storage } from '../../../../storage/index.ts';
import type { UploadedFile } from '../../../../lib/files.ts';
import { badRequest, forbidden, notFound, tooLarge } from '../../../../lib/errors.ts';
import { insertComments } from '../../../tasks/comments.ts';
import { tutorFor } from '../../../tasks/people.ts';
import { ensureTask } from '../../../tasks/tasks.ts';
import { serializeComment, type CommentOut } from './serialize-comments.ts';

/** The student's task a comment goes on (created when the first comment is made). */
export interface CommentedTask {
  taskId: number | null;
  projectId: number;
  definitionId: number;
  /** The project's student. */
  studentId: number;
}

export interface NewTaskComment {
  comment?: string;
  attachment?: UploadedFile;
  reply_to_id?: number;
}

const NOT_ACCEPTED = 'Please upload only images, audio or PDF documents';

/** What an attachment is, by its bytes; refused unless an image, a whole PDF, or audio or video. */
async function classify(file: UploadedFile): Promise<{ kind: AttachmentKind; mime: string; ext: string }> {
  if (file.size === 0) throw badRequest('Attachment is empty.');
  if (file.size >= MAX_ATTACHMENT_BYTES) {
    throw tooLarge('Attachment exceeds the maximum attachment size of 30MB.');
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

/** Adds the comment (the attachment's file is checked before anything is written, and stored last). */
export async function createComment(
  em: Em,
  services: { storage: Storage; now: Date },
  on: CommentedTask,
  authorId: number,
  input: NewTaskComment,
): Promise<CommentOut> {
  const { now } = services;
  // The file is checked before anything is written.
  const attachment = input.attachment ? await classify(input.attachment) : null;
  const taskId = on.taskId ?? (await ensureTask(em, on.projectId, on.definitionId, now));
  if (input.reply_to_id !== undefined) await checkReplyTo(em, { id: authorId }, input.reply_to_id, taskId);

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
    const check = checkTextComment(input.comment, last ? { authorId: last.author_id, comment: last.comment } : null, authorId);
    if (!check.ok) throw check.status === 400 ? badRequest(check.message) : forbidden(check.message);
    text = check.text;
  }

  // The student's own comment goes to their tutor for the task; staff's to the student.
  const recipientId = authorId === on.studentId ? await tutorFor(em, on.projectId, on.definitionId) : on.studentId;
  const [id] = await insertComments(
    em,
    [{ taskId, authorId, recipientId, kind: attachment?.kind ?? 'text', comment: text, replyToId: input.reply_to_id ?? null }],
    now,
  );
  if (attachment) {
    const key = storageKeys.commentAttachment(id, attachment.ext);
    await db(em).updateTable('task_comments').set({ attachment_path: key, attachment_content_type: attachment.mime }).where('id', '=', id).execute();
    const out = await serializeComment(em, id, authorId);
    // Stored last: any failure before this leaves neither row nor file. (Should the commit itself
    // fail, the file stays under an id no row will ever take again.)
    await services.storage.put(key, { path: input.attachment!.path });
    return out;
  }
  return serializeComment(em, id, authorId);
}
