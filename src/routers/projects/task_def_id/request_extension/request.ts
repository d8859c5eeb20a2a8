import { route } from '../../../../trpc/route.ts';
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { clampExtensionRequest } from '../../../../domain/task-rules.ts';
import { forbidden } from '../../../../trpc/errors.ts';
import { taskMutation } from '../../../../trpc/scopes/index.ts';
import { insertComments } from '../../../../operations/tasks/comments.ts';
import { tutorFor } from '../../../../operations/tasks/people.ts';
import { ensureTask, loadTasks } from '../../../../operations/tasks/tasks.ts';
import { commentOut, serializeComment } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';
import { assessExtensionRequest } from '../../../../operations/projects/task_def_id/assess_extension/assess-extension-request.ts';
import { requestExtensionInput } from './schemas.ts';
import { canInTask } from '../../../../policy/index.ts';

export const requestExtension = taskMutation(requestExtensionInput, {
  task: 'request_extension',
  refused: 'Not authorised to request an extension for this task',
  projectField: 'project_id',
})
  .meta(
    route(
      'POST',
      '/api/projects/{project_id}/task_def_id/{task_definition_id}/request_extension',
      'Projects, submissions, comments',
      'Ask for more time on a task',
      {
        description: 'Staff of the unit, or the student when the unit allows student extension requests. See docs/api/projects.md.',
      },
    ),
  )
  .output(commentOut)
  .mutation(async ({ ctx, input }) => {
    const now = ctx.clock.now();
    const taskId = ctx.taskId ?? (await ensureTask(ctx.em, ctx.project.id, ctx.definition.id, now));
    // Locked, so the weeks left cannot change before this request is answered.
    const [task] = await loadTasks(ctx.em, [taskId], true);
    const request = clampExtensionRequest(input.weeks_requested, task.terms, task.state.extensions);
    if (!request.ok) throw forbidden(request.error);

    const mainConvenor = await mainConvenorOf(ctx.em, ctx.unit.id);
    const tutor = await tutorFor(ctx.em, task.projectId, task.taskDefinitionId);
    const recipient = input.weeks_requested > request.weeks ? (mainConvenor ?? tutor) : tutor;
    const [commentId] = await insertComments(
      ctx.em,
      [{ taskId, authorId: ctx.user.id, recipientId: recipient, kind: 'extension', comment: input.comment, extensionWeeksRequested: request.weeks }],
      now,
    );

    // Staff, who may assess extensions, grant their own request at once.
    const staff = canInTask(ctx.projectRole, 'assess_extension', ctx.unit);
    if (staff || ctx.unit.autoApplyExtensionBeforeDeadline) {
      const assessor = staff ? ctx.user.id : (mainConvenor ?? tutor ?? ctx.user.id);
      await assessExtensionRequest(ctx.em, { id: commentId, taskId, weeks: request.weeks, assessed: false }, assessor, true, true, now);
    }
    return serializeComment(ctx.em, commentId, ctx.user.id);
  });

async function mainConvenorOf(em: Em, unitId: number): Promise<number | null> {
  const row = await db(em)
    .selectFrom('units as u')
    .innerJoin('unit_roles as r', 'r.id', 'u.main_convenor_id')
    .select('r.user_id')
    .where('u.id', '=', unitId)
    .executeTakeFirst();
  return row?.user_id ?? null;
}
