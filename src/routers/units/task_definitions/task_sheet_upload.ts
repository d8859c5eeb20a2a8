import { z } from 'zod';
import { checkPdf, notValidMessage } from '../../../lib/file-kinds.ts';
import { storageKeys } from '../../../storage/index.ts';
import { forbidden } from '../../../trpc/errors.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { findTaskDefinition } from './operations.ts';
import { taskSheetUploadInput } from './task_sheet_schemas.ts';

export const uploadTaskSheet = unitMutation(taskSheetUploadInput, {
  action: 'add_task_def',
  refused: 'Not authorised to upload tasks of unit',
})
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/units/{unit_id}/task_definitions/{task_def_id}/task_sheet',
      tags: ['Task definitions'],
      summary: "Upload or replace a task definition's task sheet (PDF)",
      description:
        'Multipart field `file`: a PDF, checked by its content (a PDF signature and `%%EOF` in its last 4 KiB), whatever its name; ' +
        'anything else is refused with 403 "\'<name>\' is not a valid document file". Replaces the sheet whole; answers `true`. ' +
        'At most MAX_UPLOAD_BYTES (413 beyond). Unit Convenor or Admin.',
    },
    rest: { upload: {}, status: 200 },
  })
  .output(z.literal(true))
  .mutation(async ({ ctx, input }) => {
    const definition = await findTaskDefinition(ctx.em, ctx.unit.id, input.task_def_id);
    // Checked before anything is stored: a refused file leaves nothing behind.
    if (!(await checkPdf(input.file.path)).ok) throw forbidden(notValidMessage(input.file.filename, 'document'));
    await ctx.storage.put(storageKeys.taskSheet(definition.id), { path: input.file.path });
    return true as const;
  });
