// POST .../task_def_id/{td}/feedback_templates (docs/marking/templates.md): a tutor's chosen
// templates, rendered for this student and task, posted as ONE comment; their uses recorded; and,
// when asked, the status they suggest applied through changeTask. One transaction: a refusal
// anywhere leaves nothing written.
import { sql } from 'kysely';
import type { TaskStatus } from '../../../../../schema/enums.ts';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { commentLengthError } from '../../../../domain/comment-attachments.ts';
import { joinFeedback, renderTemplate, suggestedStatus } from '../../../../domain/feedback-templates.ts';
import { dueDay } from '../../../../domain/task-rules.ts';
import type { ProjectRole } from '../../../../policy/index.ts';
import type { Storage } from '../../../../storage/index.ts';
import { badRequest, notFound } from '../../../../lib/errors.ts';
import { ensureTask } from '../../../tasks/tasks.ts';
import { applyTaskChange, taskChangeRequest, type ChangeTerms } from '../apply-task-change.ts';
import { createComment } from '../comments/create-comment.ts';
import { serializeComment, type CommentOut } from '../comments/serialize-comments.ts';
import { UNKNOWN_TEMPLATE } from '../../../units/feedback_templates/templates.ts';

export interface ApplyTemplatesInput {
  template_ids: number[];
  apply_status?: boolean;
  /** With a suggested status that needs one (a graded definition's complete, discuss, demonstrate). */
  grade?: number | string;
}

export interface AppliedTemplates {
  comment: CommentOut;
  /** The task's status after the call. */
  status: TaskStatus;
  /** The status applied, or null when none was (not asked, or none suggested). */
  applied_status: TaskStatus | null;
}

export async function applyTemplates(
  em: Em,
  services: { storage: Storage; now: Date },
  on: { taskId: number | null; projectId: number; studentId: number; unitId: number; definition: ChangeTerms & { id: number } },
  by: { userId: number; role: ProjectRole },
  input: ApplyTemplatesInput,
): Promise<AppliedTemplates> {
  const ids = [...new Set(input.template_ids)];
  if (ids.length === 0) throw badRequest('template_ids is empty: choose at least one template');
  const k = db(em);
  const templates = await k
    .selectFrom('feedback_templates as t')
    .innerJoin('feedback_template_groups as g', 'g.id', 't.group_id')
    .select(['t.id', 't.text', 't.suggested_status', 'g.task_definition_id'])
    .where('t.id', 'in', ids)
    .where('g.unit_id', '=', on.unitId)
    .execute();
  const byId = new Map(templates.map((t) => [t.id, t]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length > 0) throw notFound(`${UNKNOWN_TEMPLATE} (id ${unknown.join(', ')})`);
  const elsewhere = templates.filter((t) => t.task_definition_id !== null && t.task_definition_id !== on.definition.id);
  if (elsewhere.length > 0) throw badRequest(`Template ${elsewhere.map((t) => t.id).join(', ')} belongs to another task definition`);

  const status = suggestedStatus(ids.map((id) => byId.get(id)!.suggested_status));
  if (input.apply_status && !status.ok) throw badRequest(`The templates suggest different statuses (${status.statuses.join(', ')}); choose one`);

  const values = await placeholderValues(em, on.projectId, on.definition.id);
  const text = joinFeedback(ids.map((id) => renderTemplate(byId.get(id)!.text, values)));
  if (text === '') throw badRequest('The templates render to an empty comment');
  const tooLong = commentLengthError(text);
  if (tooLong) throw badRequest(tooLong);

  const target = input.apply_status && status.ok ? status.status : null;
  let taskId: number;
  let commentId: number;
  if (target !== null) {
    taskId = on.taskId ?? (await ensureTask(em, on.projectId, on.definition.id, services.now));
    const request = taskChangeRequest(on.definition, { trigger: target, grade: input.grade, comment: text }, by, taskId);
    const result = await applyTaskChange(em, taskId, request, on.definition, services.now);
    commentId = result.commentId!;
  } else {
    const posted = await createComment(
      em,
      services,
      { taskId: on.taskId, projectId: on.projectId, definitionId: on.definition.id, studentId: on.studentId },
      by.userId,
      {
        comment: text,
      },
    );
    commentId = posted.id;
    taskId = on.taskId ?? (await ensureTask(em, on.projectId, on.definition.id, services.now));
  }
  await k
    .insertInto('feedback_template_uses')
    .values(ids.map((id) => ({ template_id: id, task_id: taskId, comment_id: commentId, user_id: by.userId, created_at: services.now.toISOString() })))
    .execute();
  const after = await k.selectFrom('tasks').select('status').where('id', '=', taskId).executeTakeFirstOrThrow();
  return { comment: await serializeComment(em, commentId, by.userId), status: after.status, applied_status: target };
}

/** The student's first name, the task's name and its due day (with extensions) for the placeholders. */
async function placeholderValues(em: Em, projectId: number, definitionId: number) {
  const found = await sql<{ first_name: string; name: string; target_date: string; deadline: string; extensions: number }>`
    select u.first_name, d.name, d.target_date::text, coalesce(d.due_date, un.end_date)::text as deadline, coalesce(t.extensions, 0) as extensions
    from projects p
    join users u on u.id = p.user_id
    join units un on un.id = p.unit_id
    join task_definitions d on d.id = ${definitionId}
    left join tasks t on t.project_id = p.id and t.task_definition_id = d.id
    where p.id = ${projectId}`.execute(db(em));
  const row = found.rows[0];
  return {
    student_first_name: row.first_name,
    task_name: row.name,
    due_date: dueDay({ targetDate: row.target_date.slice(0, 10), deadline: row.deadline.slice(0, 10) }, row.extensions),
  };
}
