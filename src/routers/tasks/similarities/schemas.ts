import { z } from 'zod';
import { formBool, idField } from '../../../trpc/fields.ts';

export const taskSimilaritiesInput = z.object({ task_id: idField().describe('The task') });
export const similarityInput = taskSimilaritiesInput.extend({ id: idField().describe('The similarity') });
export const flagSimilarityInput = similarityInput.extend({ flagged: formBool().describe('false dismisses the flag, true raises it again') });
export const similarityContentsInput = similarityInput.extend({
  idx: z.coerce.number().int().min(0).describe("The part: 0 this task's side, 1 the matching work (code similarities)"),
  as_attachment: formBool().default(false),
});

// The output shapes are written beside the operation that produces them.
export { similarityOut, type SimilarityOut } from '../../../operations/tasks/similarities/load-similarities.ts';

export const viewerUrlOut = z.object({ viewer_url: z.string() });
