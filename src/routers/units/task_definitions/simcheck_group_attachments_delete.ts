import { z } from 'zod';
import { createAction } from '../../../similarity/simcheck-actions.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { requireSimcheckEnabled } from '../../simcheck/schemas.ts';
import { findTaskDefinition } from './operations.ts';
import { GROUP_ATTACHMENTS_REFUSED, findGroupAttachment, groupAttachmentInput } from './simcheck_group_attachments_schemas.ts';

export const deleteSimcheckGroupAttachment = unitMutation(groupAttachmentInput, { action: 'add_task_def', refused: GROUP_ATTACHMENTS_REFUSED })
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/api/units/{unit_id}/task_definitions/{task_def_id}/simcheck_group_attachments/{id}',
      tags: ['Task definitions'],
      summary: 'Remove a group attachment (and queue removing its copy from the similarity service)',
      description: 'No body (204). 403 while checks are off. Unit Convenor or Admin.',
    },
    rest: { status: 204 },
  })
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const definition = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_def_id);
    const attachment = await findGroupAttachment(ctx.em, definition.id, input.id);
    requireSimcheckEnabled(ctx.config);
    if (attachment.remoteId && definition.simcheckGroupId) {
      const action = await createAction(ctx.em, {
        action: 'delete_group_attachment',
        unit: ctx.unit.id,
        description: `Delete group attachment ${attachment.filename} in ${definition.abbreviation} for ${ctx.unit.code}`,
        params: { groupId: definition.simcheckGroupId, remoteId: attachment.remoteId },
      });
      await ctx.jobs.add('simcheck_action', { actionId: action.id }, { jobKey: `simcheck_action:${action.id}` });
    }
    ctx.em.remove(attachment);
    await ctx.em.flush();
    return true as const;
  });
