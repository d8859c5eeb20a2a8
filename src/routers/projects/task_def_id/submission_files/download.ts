// GET /api/projects/{id}/task_def_id/{td}/submission_files: the latest upload's files as a zip.
import { route } from '../../../../trpc/route.ts';
import { basename } from 'node:path';
import { zipEntryOpener } from '../../../../storage/index.ts';
import { db } from '../../../../db/kysely.ts';
import { fileNotFoundPdf } from '../../../../lib/placeholder-pdf.ts';
import { safeEntryPart, writeZip } from '../../../../lib/zip.ts';
import { fileResult, type FileResult } from '../../../../trpc/files.ts';
import { taskQuery } from '../../../../trpc/scopes/index.ts';
import { READ_REFUSAL } from '../submission_details/get.ts';
import { filesEntries, sharingTaskIds } from '../../../../operations/projects/task_def_id/submission/submission-files.ts';
import { downloadInput } from '../submission/schemas.ts';

export const downloadSubmissionFiles = taskQuery(downloadInput, { project: 'get_submission', refused: READ_REFUSAL })
  .meta(
    route(
      'GET',
      '/api/projects/{id}/task_def_id/{task_definition_id}/submission_files',
      'Projects, submissions, comments',
      "Download the files of a task's latest upload",
      {
        description:
          '`<username>-<ABBREVIATION>.zip` (attachment) holding the files as uploaded, named `NNN-<type>.<ext>` in ' +
          "requirement order (`000-document.pdf`, `001-code.py`, ...); group members get the group's upload. Without an " +
          "upload: `FileNotFound.pdf` (200). The student or the unit's staff.",
        rest: { file: true },
      },
    ),
  )
  .output(fileResult().meta({ contentMediaType: 'application/zip' }))
  .query(async ({ ctx }): Promise<FileResult> => {
    const [entry] = ctx.taskId === null ? [] : await filesEntries(ctx.em, await sharingTaskIds(ctx.em, ctx.taskId), 1);
    if (!entry) return { filename: 'FileNotFound.pdf', contentType: 'application/pdf', data: fileNotFoundPdf(), asAttachment: true };
    const stored = await db(ctx.em).selectFrom('submission_files').select('storage_path').where('submission_id', '=', entry.id).orderBy('idx').execute();
    const student = await db(ctx.em)
      .selectFrom('users')
      .select('username')
      .where('id', '=', (ctx.project.user as unknown as { id: number }).id)
      .executeTakeFirstOrThrow();
    const entries = stored.map((f) => ({
      name: basename(f.storage_path),
      open: zipEntryOpener(ctx.storage, f.storage_path),
    }));
    return {
      filename: `${safeEntryPart(student.username)}-${safeEntryPart(ctx.definition.abbreviation)}.zip`,
      contentType: 'application/zip',
      data: writeZip(entries),
      asAttachment: true,
    };
  });
