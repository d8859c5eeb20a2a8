// GET /api/submission/project/{id}/portfolio: the compiled portfolio, or the original's placeholder.
import { db } from '../../../../db/kysely.ts';
import type { Em } from '../../../../db/orm.ts';
import { fileNotFoundPdf } from '../../../../lib/placeholder-pdf.ts';
import { storageKeys, storedDownload, type Storage } from '../../../../storage/index.ts';
import type { FileResult } from '../../../../lib/files.ts';

/** `<CODE>-<username>-portfolio.pdf`; `FileNotFound.pdf` (as the original) while there is none. */
export async function portfolioDownload(em: Em, storage: Storage, project: { id: number; unitCode: string }, asAttachment: boolean): Promise<FileResult> {
  const pdf = await storedDownload(storage, storageKeys.portfolio(project.id));
  if (!pdf) return { filename: 'FileNotFound.pdf', contentType: 'application/pdf', data: fileNotFoundPdf(), asAttachment };
  const owner = await db(em)
    .selectFrom('projects as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .select('u.username')
    .where('p.id', '=', project.id)
    .executeTakeFirstOrThrow();
  return {
    filename: `${project.unitCode}-${owner.username}-portfolio.pdf`,
    contentType: 'application/pdf',
    data: pdf,
    size: pdf.size,
    asAttachment,
    ranges: true,
  };
}
