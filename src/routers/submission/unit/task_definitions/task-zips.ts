// GET /api/submission/unit/{id}/task_definitions/{td}/student_pdfs and .../download_submissions
// (beyond-spec.md §7): one task's PDFs, or its latest uploaded files, for the whole unit; built
// for each request and written while they are sent.
import { route } from '../../../../trpc/route.ts';
import { writeZip } from '../../../../lib/zip.ts';
import { fileResult, type FileResult } from '../../../../lib/files.ts';
import { unitQuery } from '../../../../trpc/scopes/index.ts';
import { findTaskDefinition } from '../../../../operations/units/task_definitions/find-task-definition.ts';
import { taskFileEntries, taskPdfEntries } from '../../../../operations/submission/unit/zip-entries.ts';
import { UNIT_ZIP_REFUSED, taskZipInput, zipDownloadName } from '../schemas.ts';

const scope = { field: 'id', action: 'provide_feedback', refused: UNIT_ZIP_REFUSED } as const;
const WHO = 'One entry per student, or per group for group work (named by the group). Tutors and convenors of the unit; an unknown definition 404.';

export const downloadTaskPdfs = unitQuery(taskZipInput, scope)
  .meta(
    route(
      'GET',
      '/api/submission/unit/{id}/task_definitions/{task_definition_id}/student_pdfs',
      'Submission batches and portfolios',
      "Download every student's PDF of one task",
      {
        description:
          '`<YYYY-MM-DD HH_MM_SS>-<CODE>-<ABBR>-pdfs.zip` (`application/zip`, attachment) holding `<ABBR>-pdfs/<username ' +
          'or group name>.pdf` for each ' +
          `task of the definition whose PDF is ready. Built fresh for each request and sent as it is written. ${WHO}`,
        rest: { file: true },
      },
    ),
  )
  .output(fileResult().meta({ contentMediaType: 'application/zip' }))
  .query(async ({ ctx, input }): Promise<FileResult> => {
    const definition = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_definition_id);
    const now = ctx.clock.now();
    const entries = await taskPdfEntries(ctx.em, ctx.storage, definition.id, definition.abbreviation, now);
    return {
      filename: zipDownloadName(now, ctx.unit.code, definition.abbreviation, 'pdfs'),
      contentType: 'application/zip',
      data: writeZip(entries),
      asAttachment: true,
    };
  });

export const downloadTaskSubmissions = unitQuery(taskZipInput, scope)
  .meta(
    route(
      'GET',
      '/api/submission/unit/{id}/task_definitions/{task_definition_id}/download_submissions',
      'Submission batches and portfolios',
      "Download every student's latest uploaded files of one task",
      {
        description:
          '`<YYYY-MM-DD HH_MM_SS>-<CODE>-<ABBR>-submissions.zip` (`application/zip`, attachment) holding ' +
          '`<ABBR>-submissions/<username or group name>/<NNN-type.ext>` ' +
          `for the files of each task's latest upload, as uploaded. Built fresh for each request and sent as it is written. ${WHO}`,
        rest: { file: true },
      },
    ),
  )
  .output(fileResult().meta({ contentMediaType: 'application/zip' }))
  .query(async ({ ctx, input }): Promise<FileResult> => {
    const definition = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_definition_id);
    const now = ctx.clock.now();
    const entries = await taskFileEntries(ctx.em, ctx.storage, definition.id, definition.abbreviation, now);
    return {
      filename: zipDownloadName(now, ctx.unit.code, definition.abbreviation, 'submissions'),
      contentType: 'application/zip',
      data: writeZip(entries),
      asAttachment: true,
    };
  });
