import { join } from 'node:path';
import { z } from 'zod';
import { checkZip, notOfKindMessage } from '../../../lib/file-kinds.ts';
import { NotAZipError } from '../../../lib/zip.ts';
import { idField } from '../../../trpc/fields.ts';
import { uploadedFile } from '../../../trpc/files.ts';
import { forbidden } from '../../../trpc/errors.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { loadTaskDefinitions } from './schemas.ts';
import { importTaskFilesFromZip } from './task_pdfs_import.ts';

export const taskPdfsInput = z.object({ unit_id: idField(), file: uploadedFile() });

const entryResult = z.object({ row: z.string(), message: z.string() });
export const taskPdfsOut = z.object({ success: z.array(entryResult), errors: z.array(entryResult), ignored: z.array(entryResult) });

export const uploadTaskPdfs = unitMutation(taskPdfsInput, {
  action: 'add_task_def',
  refused: 'Not authorised to upload tasks of unit',
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/units/{unit_id}/task_definitions/task_pdfs',
      tags: ['Task definitions'],
      summary: 'Upload many task sheets and resources in one zip',
      description:
        'Multipart field `file`: a zip (by content; 403 "File given is not a zip file - detected <type>" otherwise). Each entry `<ABBREVIATION>.pdf` (in any folder) ' +
        'becomes the task sheet, and `<ABBREVIATION>.zip` the resources, of the definition with exactly that abbreviation, checked as the single uploads are. ' +
        'Answers `{success, errors, ignored}`, each item `{row: <entry name>, message}`: "Added as task <ABBR>"; "Unable to find a task with matching abbreviation."; ' +
        'an entry of another type is ignored ("Unknown file type."); an entry whose name would unpack outside its folder is an error and is never read. ' +
        'Entries are checked before any is stored. Unit Convenor or Admin.',
    },
    rest: { upload: {} },
  })
  .output(taskPdfsOut)
  .mutation(async ({ ctx, input }) => {
    const kind = await checkZip(input.file.path);
    if (!kind.ok) throw forbidden(notOfKindMessage('zip', kind.detected));
    const definitions = await loadTaskDefinitions(ctx.em, ctx.unit.id);
    try {
      return await importTaskFilesFromZip(ctx.storage, definitions, input.file.path, {
        workDir: join(ctx.config.dataDir, 'incoming'),
        maxEntryBytes: ctx.config.maxUploadBytes,
      });
    } catch (error) {
      if (error instanceof NotAZipError) throw forbidden(`File given is not a usable zip file - ${error.message}`);
      throw error;
    }
  });
