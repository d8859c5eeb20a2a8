import { z } from 'zod';
import { formBool, idField } from '../../trpc/fields.ts';

export const statsOut = z.object({
  red_pct: z.number(),
  grey_pct: z.number(),
  orange_pct: z.number(),
  blue_pct: z.number(),
  green_pct: z.number(),
  order_scale: z.number(),
});

export const studentOut = z.object({
  id: z.number().int(),
  student_id: z.string().nullable(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  nickname: z.string().nullable(),
});

/** The spec's "Student project record": one enrolment as staff see it in the unit's student list. */
export const studentProjectOut = z.object({
  id: z.number().int(),
  enrolled: z.boolean(),
  campus_id: z.number().int().nullable(),
  student: studentOut,
  target_grade: z.number().int(),
  submitted_grade: z.number().int().nullable(),
  compile_portfolio: z.boolean(),
  grade: z.number().int().describe('0 until graded'),
  grade_rationale: z.string().nullable(),
  similarity_flag: z.boolean(),
  has_portfolio: z.boolean(),
  portfolio_available: z.boolean(),
  uses_draft_learning_summary: z.boolean(),
  stats: statsOut,
  tutorial_enrolments: z.array(z.object({ stream_abbr: z.string().nullable(), tutorial_id: z.number().int() })),
});
export type StudentProjectOut = z.infer<typeof studentProjectOut>;

export const listStudentsInput = z.object({
  unit_id: idField(),
  // The spec's name; the web client sends `withdrawn`. Either true lists withdrawn students too.
  withdraw: formBool().optional(),
  withdrawn: formBool().optional(),
});
