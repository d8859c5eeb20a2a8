import { z } from 'zod';
import { TASK_STATUSES } from '../../../../schema/enums.ts';
import { MAX_COMMENT_CHARS } from '../../../domain/comment-attachments.ts';
import { formString, idField, preprocess, requiredString } from '../../../trpc/fields.ts';
import { uploadedFile } from '../../../lib/files.ts';

const TOO_LONG = (max: number) => ({ message: `is too long (maximum is ${max} characters)` });

export { templateOut } from '../feedback_template_groups/schemas.ts';

const title = () => requiredString().pipe(z.string().max(255, TOO_LONG(255)));
const text = () =>
  formString()
    .pipe(z.string().min(1, { message: 'is empty' }).max(MAX_COMMENT_CHARS, TOO_LONG(MAX_COMMENT_CHARS)))
    .describe('Placeholders `{student_first_name}`, `{task_name}` and `{due_date}` are filled in; any other stays as typed');
/** A task status, or blank/null for none. */
const suggested = () =>
  preprocess((v) => (v === '' || v === 'null' ? null : v), z.enum(TASK_STATUSES).nullable()).describe('The status the template suggests, or null');

export const createTemplateInput = z.object({
  unit_id: idField(),
  group_id: idField(),
  title: title(),
  text: text(),
  suggested_status: suggested().optional(),
});

export const updateTemplateInput = z.object({
  unit_id: idField(),
  id: idField(),
  group_id: idField().optional(),
  title: title().optional(),
  text: text().optional(),
  suggested_status: suggested().optional(),
});

export const templateIdInput = z.object({ unit_id: idField(), id: idField() });
export const unitIdInput = z.object({ unit_id: idField() });
export const uploadTemplatesInput = z.object({ unit_id: idField(), file: uploadedFile() });
