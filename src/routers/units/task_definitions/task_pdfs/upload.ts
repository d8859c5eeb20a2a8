import { join } from 'node:path';
import { importTaskFilesUpload } from '../../../../operations/units/task_definitions/import-task-files.ts';
import { route } from '../../../../trpc/route.ts';
import { unitMutation } from '../../../../trpc/scopes/index.ts';
import { taskPdfsInput, taskPdfsOut } from './schemas.ts';

export const uploadTaskPdfs = unitMutation(taskPdfsInput, {
  action: 'add_task_def',
  refused: 'Not authorised to upload tasks of unit',
})
  .meta(
    route('POST', '/api/units/{unit_id}/task_definitions/task_pdfs', 'Task definitions', 'Upload many task sheets and resources in one zip', {
      description:
        'Multipart field `file`: a zip whose `<ABBREVIATION>.pdf` and `<ABBREVIATION>.zip` entries become task sheets and resources. ' +
        'Answers `{success, errors, ignored}`. Unit Convenor or Admin. See docs/api/taskdefs.md.',
      rest: { upload: {} },
    }),
  )
  .output(taskPdfsOut)
  .mutation(({ ctx, input }) =>
    importTaskFilesUpload(ctx.em, ctx.storage, ctx.unit.id, input.file.path, {
      workDir: join(ctx.config.dataDir, 'incoming'),
      maxEntryBytes: ctx.config.maxUploadBytes,
    }),
  );
