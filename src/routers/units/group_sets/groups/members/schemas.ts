import { z } from 'zod';
import { idField } from '../../../../../trpc/fields.ts';

export const groupInput = z.object({ unit_id: idField(), group_set_id: idField(), group_id: idField() });
export const addMemberInput = groupInput.extend({ project_id: idField() });
export const removeMemberInput = groupInput.extend({ id: idField() });

const student = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  username: z.string(),
  nickname: z.string().nullable(),
});

/** The listing form: the web client reads `student` as an object (web-client.md §3.8), not the spec's string. */
export const memberOut = z.object({ id: z.number().int(), target_grade: z.number().int(), student });

/** The add form, as the spec lists it. */
export const addedMemberOut = z.object({
  id: z.number().int(),
  student_username: z.string(),
  student_first_name: z.string(),
  student_last_name: z.string(),
  student_nickname: z.string().nullable(),
  target_grade: z.number().int(),
});
