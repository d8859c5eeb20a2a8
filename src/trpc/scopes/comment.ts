// Operations on one comment of a student's task. The task is scoped as taskQuery scopes it (404s,
// then 403 with the operation's message); then the comment the input names is loaded (404 unless
// it is the task's, or its group submission's) and, for a change that depends on who wrote it,
// the task table must allow the author's or the other's action (403). The comment goes in
// `ctx.comment`.
import type { z } from 'zod';
import { canInTask, type TaskAction } from '../../policy/index.ts';
import { findDiscussion, findTaskComment } from '../../operations/tasks/comment-reading.ts';
import { forbidden } from '../../lib/errors.ts';
import { CHANGE, idIn, READ, type Base } from './shared.ts';
import { scopeToTask, type TaskScope } from './task.ts';

export interface CommentScope extends TaskScope {
  /** Which input field names the comment (default `id`). */
  commentField?: string;
  /** Only a discussion comment is found (any other is 404). */
  discussion?: boolean;
  /** The task action the caller needs on the comment: `own` on one they wrote, `other` on anyone else's. */
  byAuthor?: { own: TaskAction; other: TaskAction; refused: string };
}

function scopeToComment<S extends z.ZodType>(base: Base, input: S, scope: CommentScope) {
  return scopeToTask(base, input, scope).use(async ({ ctx, input, next }) => {
    const id = idIn(input, scope.commentField ?? 'id');
    const comment = scope.discussion ? await findDiscussion(ctx.em, ctx.taskId, id) : await findTaskComment(ctx.em, ctx.taskId, id);
    const { byAuthor } = scope;
    if (byAuthor && !canInTask(ctx.projectRole, comment.authorId === ctx.user.id ? byAuthor.own : byAuthor.other, ctx.unit)) throw forbidden(byAuthor.refused);
    return next({ ctx: { comment } });
  });
}

/** A read of one comment: the task's context and `ctx.comment`. */
export const commentQuery = <S extends z.ZodType>(input: S, scope: CommentScope) => scopeToComment(READ, input, scope);

/** A change of one comment, in one transaction. */
export const commentMutation = <S extends z.ZodType>(input: S, scope: CommentScope) => scopeToComment(CHANGE, input, scope);
