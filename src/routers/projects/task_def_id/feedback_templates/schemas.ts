import { z } from 'zod';
import { TASK_STATUSES } from '../../../../../schema/enums.ts';
import { commentOut } from '../../../../operations/projects/task_def_id/comments/serialize-comments.ts';
import { formBool, formInt, formIntList, notGivenIfBlank } from '../../../../trpc/fields.ts';
import { projectTaskIds } from '../schemas.ts';

export const applyTemplatesInput = z.object({
  ...projectTaskIds,
  template_ids: formIntList().describe('The templates, in the order their texts are joined'),
  apply_status: notGivenIfBlank(formBool()).describe('Also apply the status the templates suggest (400 when they suggest different ones)'),
  grade: notGivenIfBlank(z.union([formInt(), z.string()])).describe('With a suggested status a graded definition needs a grade for'),
});

export const appliedTemplatesOut = z.object({
  comment: commentOut,
  status: z.enum(TASK_STATUSES),
  applied_status: z.enum(TASK_STATUSES).nullable(),
});
