import { z } from 'zod';
import { idField } from '../../../../trpc/fields.ts';

export const unitLineItemsInput = z.object({ unit_id: idField() });
export const createLineItemInput = z.object({ unit_id: idField(), task_definition_id: idField() });

export const lineItemOut = z.object({
  context_id: z.number().int(),
  course: z.string().nullable().describe("The LMS course's title"),
  lineitem_url: z.string(),
  source: z.enum(['resource_link', 'found', 'created']).describe('From a resource link (deep linking, launch), or found or created by the tool'),
  passback: z.boolean().describe("The course's launches granted the score scope: scores are passed back"),
});

export const taskDefinitionLineItemsOut = z.object({
  task_definition_id: z.number().int(),
  abbreviation: z.string(),
  name: z.string(),
  line_items: z.array(lineItemOut),
});
