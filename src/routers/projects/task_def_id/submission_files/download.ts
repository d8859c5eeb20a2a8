// GET /api/projects/{id}/task_def_id/{td}/submission_files: the latest upload's files as a zip.
import { route } from '../../../../trpc/route.ts';
import { refId } from '../../../../db/refs.ts';
import { fileResult } from '../../../../lib/files.ts';
import { taskQuery } from '../../../../trpc/scopes/index.ts';
import { zipSubmissionFiles } from '../../../../operations/projects/task_def_id/submission_files/zip-submission-files.ts';
import { READ_REFUSAL } from '../submission_details/schemas.ts';
import { downloadInput } from './schemas.ts';

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
  .query(({ ctx }) =>
    zipSubmissionFiles(ctx.em, ctx.storage, { taskId: ctx.taskId, studentId: refId(ctx.project.user), abbreviation: ctx.definition.abbreviation }),
  );
