import { router } from '../../../trpc/core.ts';
import { downloadEngagementAttachment } from './attachment.ts';
import { createEngagement } from './create.ts';
import { deleteEngagement } from './delete.ts';
import { getEngagement } from './get.ts';
import { listEngagements } from './list.ts';
import { replyToEngagementProcedure } from './reply.ts';
import { updateEngagement } from './update.ts';

/** /api/projects/{project_id}/engagements: check-ins (docs/check-ins.md). */
export const engagementsRouter = router({
  list: listEngagements,
  create: createEngagement,
  get: getEngagement,
  update: updateEngagement,
  delete: deleteEngagement,
  attachment: downloadEngagementAttachment,
  reply: replyToEngagementProcedure,
});
