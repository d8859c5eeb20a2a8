import { z } from 'zod';
import { TASK_STATUSES } from '../../../../schema/enums.ts';
import { idField, notGivenIfBlank, preprocess, requiredString } from '../../../trpc/fields.ts';

const TOO_LONG = (max: number) => ({ message: `is too long (maximum is ${max} characters)` });

/** A template as the list, create and update answer it. */
export const templateOut = z.object({
  id: z.number().int(),
  group_id: z.number().int(),
  title: z.string(),
  text: z.string(),
  suggested_status: z.enum(TASK_STATUSES).nullable(),
  unknown_placeholders: z.array(z.string()).describe('Placeholders in braces that are not filled in: they stay as typed in the comment'),
  usage_count: z.number().int().describe('How many comments used it'),
});

export const templateGroupOut = z.object({
  id: z.number().int(),
  name: z.string(),
  task_definition_id: z.number().int().nullable().describe('Null: for every task of the unit'),
  templates: z.array(templateOut),
});

export const groupName = () => requiredString().pipe(z.string().max(255, TOO_LONG(255)));

/** A definition id; null, blank or "null" make the group unit-wide. */
export const definitionRef = () =>
  preprocess((v) => (v === '' || v === 'null' ? null : v), idField().nullable()).describe('A task definition of the unit; null for every task');

export const listGroupsInput = z.object({
  unit_id: idField(),
  task_definition_id: notGivenIfBlank(idField()).describe("Only the unit-wide groups and this definition's"),
});

export const createGroupInput = z.object({
  unit_id: idField(),
  name: groupName(),
  task_definition_id: definitionRef().optional(),
});

export const updateGroupInput = z.object({
  unit_id: idField(),
  id: idField(),
  name: groupName().optional(),
  task_definition_id: definitionRef().optional(),
});

export const groupIdInput = z.object({ unit_id: idField(), id: idField() });
