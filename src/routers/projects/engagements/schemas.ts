import { z } from 'zod';
import { MAX_ENGAGEMENT_NOTE_CHARS, MAX_ENGAGEMENT_TYPE_CHARS } from '../../../domain/engagements.ts';
import { uploadedFile } from '../../../lib/files.ts';
import { formBool, formString, formTimestamp, idField, notGivenIfBlank, requiredString } from '../../../trpc/fields.ts';

// `/api/projects/{project_id}/engagements` (docs/check-ins.md)
const ids = { project_id: idField(), id: idField() };
const engagementType = () =>
  requiredString()
    .pipe(z.string().max(MAX_ENGAGEMENT_TYPE_CHARS, { message: `is too long (maximum is ${MAX_ENGAGEMENT_TYPE_CHARS} characters)` }))
    .describe('Free text, e.g. attendance or check-in');
const note = () =>
  requiredString().pipe(z.string().max(MAX_ENGAGEMENT_NOTE_CHARS, { message: `is too long (maximum is ${MAX_ENGAGEMENT_NOTE_CHARS} characters)` }));
const occurredAt = () => formTimestamp().describe('When it happened: not before 2000, at most a day ahead of now');
const evidenceUrl = () => notGivenIfBlank(formString()).describe('Evidence as an http or https URL (not with an attachment)');
const attachment = () =>
  notGivenIfBlank(uploadedFile()).describe('Evidence as a file: an image (re-encoded when stored) or a PDF, under 30 MB (not with evidence_url)');

export const projectIdInput = z.object({ project_id: idField() });
export const engagementIdInput = z.object(ids);

export const createEngagementInput = z.object({
  project_id: idField(),
  engagement_type: engagementType(),
  note: note(),
  occurred_at: occurredAt(),
  evidence_url: evidenceUrl(),
  attachment: attachment(),
});

export const updateEngagementInput = z.object({
  ...ids,
  engagement_type: engagementType().optional(),
  note: note().optional(),
  occurred_at: occurredAt().optional(),
  evidence_url: evidenceUrl(),
  attachment: attachment(),
  remove_evidence: notGivenIfBlank(formBool()).describe('Removes the URL or the file (not with new evidence, which replaces the old)'),
});

export const engagementAttachmentInput = z.object({ ...ids, as_attachment: formBool().default(false) });

export const replyInput = z.object({ ...ids, comment: requiredString() });

export const engagementReplyOut = z.object({
  id: z.number().int(),
  author_id: z.number().int(),
  author_name: z.string(),
  comment: z.string(),
  created_at: z.string(),
});

export const engagementOut = z.object({
  id: z.number().int(),
  project_id: z.number().int(),
  author_id: z.number().int(),
  author_name: z.string(),
  engagement_type: z.string(),
  note: z.string(),
  occurred_at: z.string(),
  evidence_url: z.string().nullable(),
  attachment_filename: z.string().nullable(),
  attachment_content_type: z.string().nullable(),
  attachment_bytes: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  comments: z.array(engagementReplyOut),
});
