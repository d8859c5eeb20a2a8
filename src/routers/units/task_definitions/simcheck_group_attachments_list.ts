import { z } from 'zod';
import { SimcheckGroupAttachment } from '../../../../schema/index.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { findTaskDefinition } from './operations.ts';
import { GROUP_ATTACHMENTS_REFUSED, groupAttachmentOut, groupAttachmentsInput, toGroupAttachment } from './simcheck_group_attachments_schemas.ts';

export const listSimcheckGroupAttachments = unitQuery(groupAttachmentsInput, { action: 'add_task_def', refused: GROUP_ATTACHMENTS_REFUSED })
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/units/{unit_id}/task_definitions/{task_def_id}/simcheck_group_attachments',
      tags: ['Task definitions'],
      summary: "The task resources' documents registered with the similarity service",
      description: 'Unit Convenor or Admin (tutors and students 403).',
    },
  })
  .output(z.array(groupAttachmentOut))
  .query(async ({ ctx, input }) => {
    const definition = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_def_id);
    const rows = await ctx.em.find(SimcheckGroupAttachment, { taskDefinition: definition.id }, { orderBy: { id: 'asc' } });
    return rows.map(toGroupAttachment);
  });
