import { z } from 'zod';
import { idField, requiredString } from '../../../../trpc/fields.ts';

export const tutorialEnrolmentInput = z.object({
  unit_id: idField(),
  tutorial_abbr: requiredString(),
  project_id: idField(),
});

export const enrolmentsOut = z.object({
  enrolments: z.array(z.object({ project_id: z.number().int(), tutorial_id: z.number().int() })),
});
