import { z } from 'zod';
import { idField } from '../../../trpc/fields.ts';

// `/api/units/{unit_id}/engagements/report` (docs/check-ins.md)
export const reportInput = z.object({ unit_id: idField() });

const counts = z.array(z.number().int()).describe('Engagements in teaching weeks 1 .. current_week');

export const engagementReportOut = z.object({
  unit_id: z.number().int(),
  current_week: z.number().int(),
  weeks: z.array(z.object({ week: z.number().int(), start_date: z.string() })),
  quiet_after_weeks: z.number().int(),
  tutorials: z.array(
    z.object({
      tutorial_id: z.number().int().nullable(),
      abbreviation: z.string().nullable(),
      tutor_name: z.string().nullable(),
      weeks: counts,
      total: z.number().int(),
      quiet_students: z.number().int(),
      students: z.array(
        z.object({
          project_id: z.number().int(),
          username: z.string(),
          name: z.string(),
          weeks: counts,
          total: z.number().int(),
          last_engagement_at: z.string().nullable(),
          weeks_quiet: z.number().int(),
        }),
      ),
    }),
  ),
});
