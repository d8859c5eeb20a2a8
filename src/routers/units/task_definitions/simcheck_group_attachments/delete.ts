import { z } from 'zod';
import { deleteGroupAttachment } from '../../../../operations/units/task_definitions/group-attachments.ts';
import { route } from '../../../../trpc/route.ts';
import { unitMutation } from '../../../../trpc/scopes/index.ts';
import { GROUP_ATTACHMENTS_REFUSED, groupAttachmentInput } from './schemas.ts';

export const deleteSimcheckGroupAttachment = unitMutation(groupAttachmentInput, { action: 'add_task_def', refused: GROUP_ATTACHMENTS_REFUSED })
  .meta(
    route(
      'DELETE',
      '/api/units/{unit_id}/task_definitions/{task_def_id}/simcheck_group_attachments/{id}',
      'Task definitions',
      'Remove a group attachment (and queue removing its copy from the similarity service)',
      { description: 'No body (204). 403 while checks are off. Unit Convenor or Admin.', rest: { status: 204 } },
    ),
  )
  .output(z.literal(true))
  .mutation(({ ctx, input }) => deleteGroupAttachment(ctx, ctx.unit, input));
