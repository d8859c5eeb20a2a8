import { z } from 'zod';
import type { IActivityType } from '../../../schema/index.ts';
import { idField, requiredString } from '../../trpc/fields.ts';

export const activityTypeOut = z.object({
  id: z.number().int(),
  name: z.string(),
  abbreviation: z.string(),
});
export type ActivityTypeOut = z.infer<typeof activityTypeOut>;

export function toActivityType(a: IActivityType): ActivityTypeOut {
  return { id: a.id, name: a.name, abbreviation: a.abbreviation };
}

export const activityTypeIdInput = z.object({ id: idField() });

export const createActivityTypeInput = z.object({
  activity_type: z.object({
    name: requiredString(),
    abbreviation: requiredString(),
  }),
});

// The web client sends only the changed fields, so both are optional here.
export const updateActivityTypeInput = z.object({
  id: idField(),
  activity_type: z
    .object({
      name: requiredString().optional(),
      abbreviation: requiredString().optional(),
    })
    .default({}),
});
