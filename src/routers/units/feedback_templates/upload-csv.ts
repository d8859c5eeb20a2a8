import { route } from '../../../trpc/route.ts';
import { unitMutation } from '../../../trpc/scopes/index.ts';
import { importCsvFile } from '../../../operations/csv/read-csv.ts';
import { importTemplatesCsv } from '../../../operations/units/feedback_templates/templates-csv.ts';
import { csvImportOut } from '../outcomes/schemas.ts';
import { uploadTemplatesInput } from './schemas.ts';

export const uploadTemplatesCsv = unitMutation(uploadTemplatesInput, {
  action: 'manage_feedback_templates',
  refused: 'You are not authorised to manage the feedback templates of this unit.',
})
  .meta(
    route('POST', '/api/units/{unit_id}/feedback_templates/csv', 'Feedback templates', 'Add feedback templates from a CSV file', {
      description:
        "Multipart `file` with the download's columns: groups found by name and task definition or created; a title its group already has is ignored. " +
        'Answers `{success, errors, ignored}`. Unit Convenor or Admin.',
      rest: { upload: {} },
    }),
  )
  .output(csvImportOut)
  .mutation(({ ctx, input }) => importCsvFile(input.file.path, (text) => importTemplatesCsv(ctx.em, ctx.unit, text, ctx.clock.now())));
