import { SimcheckAction } from '../../../../schema/index.ts';
import { createAction } from '../../../similarity/simcheck-actions.ts';
import { badRequest } from '../../../trpc/errors.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { requireSimcheckEnabled } from '../../simcheck/schemas.ts';
import { findTaskDefinition } from './operations.ts';
import {
  GROUP_ATTACHMENTS_REFUSED,
  findGroupAttachment,
  groupAttachmentActionInput,
  groupAttachmentOut,
  toGroupAttachment,
} from './simcheck_group_attachments_schemas.ts';

export const updateSimcheckGroupAttachment = unitMutation(groupAttachmentActionInput, { action: 'add_task_def', refused: GROUP_ATTACHMENTS_REFUSED })
  .meta({
    openapi: {
      method: 'PUT',
      path: '/api/units/{unit_id}/task_definitions/{task_def_id}/simcheck_group_attachments/{id}',
      tags: ['Task definitions'],
      summary: 'Upload a group attachment to the similarity service again',
      description:
        '`action=upload` sets the status `has_id` and queues the upload; answers the attachment. Any other action is 400 "Invalid action". ' +
        '403 while checks are off. Unit Convenor or Admin.',
    },
  })
  .output(groupAttachmentOut)
  .mutation(async ({ ctx, input }) => {
    const definition = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_def_id);
    const attachment = await findGroupAttachment(ctx.em, definition.id, input.id);
    if (input.action !== 'upload') throw badRequest('Invalid action');
    requireSimcheckEnabled(ctx.config);
    attachment.status = 'has_id';
    let [action] = await ctx.em.find(SimcheckAction, { action: 'upload_task_resources', params: { attachmentId: attachment.id } });
    if (action) Object.assign(action, { retry: true, complete: false });
    else
      action = await createAction(ctx.em, {
        action: 'upload_task_resources',
        unit: ctx.unit.id,
        description: `Upload assessment resources ${attachment.filename} for ${definition.abbreviation} in ${ctx.unit.code}`,
        params: { attachmentId: attachment.id },
      });
    await ctx.em.flush();
    await ctx.jobs.add('simcheck_action', { actionId: action.id }, { jobKey: `simcheck_action:${action.id}` });
    return toGroupAttachment(attachment);
  });
