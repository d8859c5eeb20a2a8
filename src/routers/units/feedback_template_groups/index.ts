import { router } from '../../../trpc/core.ts';
import { createTemplateGroupProcedure } from './create.ts';
import { deleteTemplateGroupProcedure } from './delete.ts';
import { listTemplateGroupsProcedure } from './list.ts';
import { updateTemplateGroupProcedure } from './update.ts';

/** /api/units/{unit_id}/feedback_template_groups */
export const feedbackTemplateGroupsRouter = router({
  list: listTemplateGroupsProcedure,
  create: createTemplateGroupProcedure,
  update: updateTemplateGroupProcedure,
  delete: deleteTemplateGroupProcedure,
});
