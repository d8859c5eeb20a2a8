import { z } from 'zod';
import { formBool, idField } from '../../../trpc/fields.ts';

export const taskSimilaritiesInput = z.object({ task_id: idField().describe('The task') });
export const similarityInput = taskSimilaritiesInput.extend({ id: idField().describe('The similarity') });
export const flagSimilarityInput = similarityInput.extend({ flagged: formBool().describe('false dismisses the flag, true raises it again') });
export const similarityContentsInput = similarityInput.extend({
  idx: z.coerce.number().int().min(0).describe("The part: 0 this task's side, 1 the matching work (code similarities)"),
  as_attachment: formBool().default(false),
});

export const similarityPartOut = z.object({
  idx: z.number().int(),
  format: z
    .enum(['html', 'pdf'])
    .nullable()
    .describe("How the web client shows the part: code parts are plain text it shows in a frame ('html'); null when there is nothing to show"),
  description: z.string(),
});

/** The spec's Similarity, with the web client's top-level fields (web-client.md §3.5) beside it. */
export const similarityOut = z.object({
  id: z.number().int(),
  task_id: z.number().int(),
  flagged: z.boolean(),
  similarity_details: z.object({ type: z.string(), pct: z.number() }),
  type: z.string().describe('MossTaskSimilarity (code, computed by the service) or TiiTaskSimilarity (documents, similarity-check service)'),
  pct: z.number(),
  ready_for_viewer: z.boolean(),
  parts: z.array(similarityPartOut),
});
export type SimilarityOut = z.infer<typeof similarityOut>;

export const viewerUrlOut = z.object({ viewer_url: z.string() });
