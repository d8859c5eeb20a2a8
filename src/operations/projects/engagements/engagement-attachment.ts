// GET /api/projects/{project_id}/engagements/{id}/attachment: the evidence file as stored (an image
// as re-encoded, a PDF as uploaded), opened as it is sent, as comment attachments are.
import type { Em } from '../../../db/orm.ts';
import { notFound } from '../../../lib/errors.ts';
import type { FileResult } from '../../../lib/files.ts';
import { storedAttachment, type Storage } from '../../../storage/index.ts';
import { findEngagement } from './engagement-rows.ts';

/** `engagement-<id>.<ext>`; 404 for an engagement without a file, or a file gone missing. */
export async function engagementAttachment(em: Em, storage: Storage, projectId: number, engagementId: number, asAttachment: boolean): Promise<FileResult> {
  const engagement = await findEngagement(em, projectId, engagementId);
  if (!engagement.attachment_path) throw notFound('No attachment for this engagement.');
  const file = await storedAttachment(storage, engagement.attachment_path, `engagement-${engagement.id}`, engagement.attachment_content_type, asAttachment);
  if (!file) throw notFound('File missing');
  return file;
}
