import { z } from 'zod';
import { listGroupAttachments } from '../../../../operations/units/task_definitions/group-attachments.ts';
import { route } from '../../../../trpc/route.ts';
import { unitQuery } from '../../../../trpc/scopes/index.ts';
import { GROUP_ATTACHMENTS_REFUSED, groupAttachmentOut, groupAttachmentsInput } from './schemas.ts';

export const listSimcheckGroupAttachments = unitQuery(groupAttachmentsInput, { action: 'add_task_def', refused: GROUP_ATTACHMENTS_REFUSED })
  .meta(
    route(
      'GET',
      '/api/units/{unit_id}/task_definitions/{task_def_id}/simcheck_group_attachments',
      'Task definitions',
      "The task resources' documents registered with the similarity service",
      { description: 'Unit Convenor or Admin (tutors and students 403).' },
    ),
  )
  .output(z.array(groupAttachmentOut))
  .query(({ ctx, input }) => listGroupAttachments(ctx.em, ctx.unit.id, input.task_def_id));
