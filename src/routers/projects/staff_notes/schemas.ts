import { z } from 'zod';
import { MAX_NOTE_LENGTH } from '../../../operations/projects/staff_notes/staff-notes.ts';
import { formIntList, idField, notGivenIfBlank, requiredString } from '../../../trpc/fields.ts';

const noteText = () => requiredString().pipe(z.string().max(MAX_NOTE_LENGTH, { message: `is too long (maximum is ${MAX_NOTE_LENGTH} characters)` }));
const mentionIds = () => formIntList().pipe(z.array(z.number().int().positive()).max(50, { message: 'names too many people (maximum is 50)' }));

export const projectIdInput = z.object({ project_id: idField() });
export const staffNoteIdInput = z.object({ project_id: idField(), id: idField() });

export const createStaffNoteInput = z.object({
  project_id: idField(),
  text: noteText(),
  task_definition_id: notGivenIfBlank(idField()).describe('The task the note is about: a mention then marks only that task in the inbox'),
  mentioned_user_ids: mentionIds().optional().describe("Staff of the unit to notify: the project enters each one's inbox until they mark the note seen"),
});

export const updateStaffNoteInput = z.object({
  project_id: idField(),
  id: idField(),
  text: noteText().optional(),
  task_definition_id: idField().nullable().optional(),
  mentioned_user_ids: mentionIds().optional().describe('Replaces the mentions; a mention kept keeps whether it was seen'),
});

export const staffNoteOut = z.object({
  id: z.number().int(),
  project_id: z.number().int(),
  task_definition_id: z.number().int().nullable(),
  text: z.string(),
  author_id: z.number().int(),
  author_name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  mentions: z.array(z.object({ user_id: z.number().int(), name: z.string(), seen_at: z.string().nullable() })),
});
