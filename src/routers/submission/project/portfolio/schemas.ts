import { z } from 'zod';
import { UPLOAD_KINDS } from '../../../../../schema/enums.ts';
import { formBool, formInt, formString, idField, requiredString } from '../../../../trpc/fields.ts';
import { uploadedFile } from '../../../../trpc/files.ts';

const kind = z.enum(UPLOAD_KINDS);

export const portfolioPartUploadInput = z.object({
  id: idField(),
  name: requiredString().describe('What the part is; `LearningSummaryReport` with kind document is the learning summary report'),
  kind,
  file0: uploadedFile(),
});

export const portfolioDownloadInput = z.object({ id: idField(), as_attachment: formBool().optional().default(false) });

export const portfolioDeleteInput = z.object({
  id: idField(),
  idx: formInt().optional(),
  kind: kind.optional(),
  name: formString().optional(),
});

/** The spec's file_name/file_kind/file_path and the original's kind/name/idx (the web client reads the latter). */
export const portfolioPartOut = z.object({
  kind,
  name: z.string(),
  idx: z.number().int(),
  file_name: z.string(),
  file_kind: kind,
  file_path: z.string().describe('The part as the portfolio lists it, `NNN-<kind>-<name>` (a label, not a path on the server)'),
});
