// POST /api/submission/project/{id}/portfolio: one part of the student's portfolio, checked by its content.
import { z } from 'zod';
import { UPLOAD_KINDS, type UploadKind } from '../../../../../schema/enums.ts';
import type { Em } from '../../../../db/orm.ts';
import { checkUploadKind, notOfUploadKind } from '../../../../lib/upload-kinds.ts';
import type { Storage } from '../../../../storage/index.ts';
import { forbidden } from '../../../../lib/errors.ts';
import type { UploadedFile } from '../../../../lib/files.ts';
import { addPortfolioPart, partLabel } from './portfolio-parts.ts';

const kind = z.enum(UPLOAD_KINDS);

/** The spec's file_name/file_kind/file_path and the original's kind/name/idx (the web client reads the latter). */
export const portfolioPartOut = z.object({
  kind,
  name: z.string(),
  idx: z.number().int(),
  file_name: z.string(),
  file_kind: kind,
  file_path: z.string().describe('The part as the portfolio lists it, `NNN-<kind>-<name>` (a label, not a path on the server)'),
});
export type PortfolioPartOut = z.infer<typeof portfolioPartOut>;

/** Adds (or replaces, by kind and name) the part; a replaced file goes once the change is committed. */
export async function uploadPortfolioPart(
  em: Em,
  services: { storage: Storage; afterCommit: (fn: () => void) => void },
  projectId: number,
  input: { name: string; kind: UploadKind; file0: UploadedFile },
): Promise<PortfolioPartOut> {
  const { storage } = services;
  const file = input.file0;
  const check = await checkUploadKind(input.kind, file.path, file.filename);
  if (!check.ok) throw forbidden(notOfUploadKind(file.filename, input.kind));
  const { part, replaced } = await addPortfolioPart(em, storage, projectId, {
    name: input.name,
    kind: input.kind,
    filename: file.filename,
    path: file.path,
    detected: check.detected,
  });
  services.afterCommit(() => void Promise.all(replaced.map((key) => storage.delete(key))).catch(() => undefined));
  return { ...part, file_name: part.name, file_kind: part.kind, file_path: partLabel(part) };
}
