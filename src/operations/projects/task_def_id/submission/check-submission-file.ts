// Each uploaded file against its requirement, by its bytes (never the name or Content-Type sent).
import type { UploadRequirement } from '../../../../../schema/units.ts';
import { MAX_SUBMISSION_FILE_BYTES, storedExtension, tooLargeMessage } from '../../../../domain/submission-files.ts';
import { notValidMessage } from '../../../../lib/file-kinds.ts';
import { checkUploadKind } from '../../../../lib/upload-kinds.ts';
import type { UploadedFile } from '../../../../lib/files.ts';

export interface AcceptedFile {
  requirement: UploadRequirement;
  file: UploadedFile;
  contentType: string;
  extension: string;
}

/** The file as it will be stored, or the 403 message refusing it (wrong kind first, then size, as the original). */
export async function checkSubmissionFile(requirement: UploadRequirement, file: UploadedFile): Promise<AcceptedFile | { refused: string }> {
  const { ok, detected } = await checkUploadKind(requirement.type, file.path, file.filename);
  if (!ok) return { refused: notValidMessage(requirement.name, requirement.type) };
  if (file.size > MAX_SUBMISSION_FILE_BYTES) return { refused: tooLargeMessage(requirement.name) };
  return { requirement, file, contentType: detected, extension: storedExtension(requirement.type, detected, file.filename) };
}
