import { z } from 'zod';
import { CAMPUS_MODES } from '../../../schema/enums.ts';
import type { ICampus } from '../../../schema/index.ts';
import { formBool, idField, requiredString } from '../../trpc/fields.ts';

export const campusOut = z.object({
  id: z.number().int(),
  name: z.string(),
  abbreviation: z.string(),
  active: z.boolean(),
  mode: z.enum(CAMPUS_MODES),
});
export type CampusOut = z.infer<typeof campusOut>;

export function toCampus(c: ICampus): CampusOut {
  return { id: c.id, name: c.name, abbreviation: c.abbreviation, active: c.active, mode: c.mode };
}

export const campusIdInput = z.object({ id: idField() });

export const createCampusInput = z.object({
  campus: z.object({
    name: requiredString(),
    mode: z.enum(CAMPUS_MODES),
    abbreviation: requiredString(),
    active: formBool(),
  }),
});

// The web client sends only the changed fields, so every field is optional here.
export const updateCampusInput = z.object({
  id: idField(),
  campus: z
    .object({
      name: requiredString().optional(),
      mode: z.enum(CAMPUS_MODES).optional(),
      abbreviation: requiredString().optional(),
      active: formBool().optional(),
    })
    .default({}),
});
