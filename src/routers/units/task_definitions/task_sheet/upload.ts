import { uploadDefinitionFile } from '../definition-files.ts';

export const uploadTaskSheet = uploadDefinitionFile('task_sheet', 'taskSheet', {
  refused: 'Not authorised to upload tasks of unit',
  summary: "Upload or replace a task definition's task sheet (PDF)",
  description:
    'Multipart field `file`: a PDF, checked by its content (a PDF signature and `%%EOF` in its last 4 KiB), whatever its name; ' +
    'anything else is refused with 403 "\'<name>\' is not a valid document file". Replaces the sheet whole; answers `true`. ' +
    'At most MAX_UPLOAD_BYTES (413 beyond). Unit Convenor or Admin.',
  status: 200,
});
