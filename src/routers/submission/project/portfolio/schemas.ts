import { z } from 'zod';
import { UPLOAD_KINDS } from '../../../../../schema/enums.ts';
import { formBool, formInt, formString, idField, requiredString } from '../../../../trpc/fields.ts';
import { uploadedFile } from '../../../../lib/files.ts';

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

export { portfolioPartOut, type PortfolioPartOut } from '../../../../operations/submission/project/portfolio/upload-portfolio-part.ts';
