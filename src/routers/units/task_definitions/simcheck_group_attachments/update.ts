import { retryGroupAttachment } from '../../../../operations/units/task_definitions/group-attachments.ts';
import { route } from '../../../../trpc/route.ts';
import { unitMutation } from '../../../../trpc/scopes/index.ts';
import { GROUP_ATTACHMENTS_REFUSED, groupAttachmentActionInput, groupAttachmentOut } from './schemas.ts';

export const updateSimcheckGroupAttachment = unitMutation(groupAttachmentActionInput, { action: 'add_task_def', refused: GROUP_ATTACHMENTS_REFUSED })
  .meta(
    route(
      'PUT',
      '/api/units/{unit_id}/task_definitions/{task_def_id}/simcheck_group_attachments/{id}',
      'Task definitions',
      'Upload a group attachment to the similarity service again',
      {
        description:
          '`action=upload` sets the status `has_id` and queues the upload; answers the attachment. Any other action is 400 "Invalid action". ' +
          '403 while checks are off. Unit Convenor or Admin.',
      },
    ),
  )
  .output(groupAttachmentOut)
  .mutation(({ ctx, input }) => retryGroupAttachment(ctx, ctx.unit, input));
