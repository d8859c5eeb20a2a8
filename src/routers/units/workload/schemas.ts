// /api/units/{unit_id}/workload: the workload dashboard's query and answer (docs/marking/dashboard.md).
import { z } from 'zod';
import { formDay, idField } from '../../../trpc/fields.ts';

export const workloadInput = z.object({
  unit_id: idField(),
  week_start: formDay().optional().describe('First day (UTC) of the week counted by `assessed_this_week`; default: the Monday of the current week'),
  tutor_id: idField().optional().describe("Only this staff member's row (a user id); a tutor may name only themself"),
});

const seconds = z.number().int().nullable();
const figures = {
  awaiting_feedback: z.number().int().describe("Tasks in the inbox's waiting-on-staff statuses (ready for feedback, need help)"),
  oldest_waiting_seconds: seconds.describe('How long the oldest of them has waited, in seconds'),
  median_feedback_seconds_7d: seconds.describe('Median seconds from a submission to its first staff feedback, feedback given in the last 7 days'),
  feedbacks_7d: z.number().int().describe('How many submissions that median covers'),
  median_feedback_seconds_28d: seconds.describe('The same over the last 28 days'),
  feedbacks_28d: z.number().int(),
  open_escalations: z.number().int(),
};

export const workloadOut = z.object({
  unit_id: z.number().int(),
  generated_at: z.string(),
  week_start: z.string(),
  tutors: z.array(
    z.object({
      user_id: z.number().int(),
      unit_role_id: z.number().int(),
      role: z.string(),
      first_name: z.string(),
      last_name: z.string(),
      username: z.string(),
      ...figures,
      assessed_this_week: z.number().int().describe('Tasks this staff member assessed in the week'),
    }),
  ),
  unassigned: z.object(figures).nullable().describe("Tasks whose student has no tutorial with a tutor in the definition's stream; null in a tutor's own view"),
  task_definitions: z
    .array(
      z.object({
        task_definition_id: z.number().int(),
        abbreviation: z.string(),
        name: z.string(),
        awaiting_feedback: z.number().int(),
        oldest_waiting_seconds: seconds,
        median_feedback_seconds_28d: seconds,
        feedbacks_28d: z.number().int(),
        assessed_this_week: z.number().int(),
      }),
    )
    .nullable()
    .describe("Per task definition; null in a tutor's own view"),
});
