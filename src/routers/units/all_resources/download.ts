// GET /api/units/{id}/all_resources (beyond-spec.md §7): every task sheet and resources zip of a
// unit in one zip, written while it is sent; each stored file is opened only when its turn comes.
import { writeZip } from '../../../lib/zip.ts';
import { route } from '../../../trpc/route.ts';
import { unitResourceEntries } from '../../../operations/units/unit-resource-entries.ts';
import { fileResult, type FileResult } from '../../../lib/files.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { unitIdInput } from '../schemas.ts';

export const downloadAllResources = unitQuery(unitIdInput, {
  field: 'id',
  action: 'get_unit',
  refused: 'Not authorised to download resources of unit',
})
  .meta(
    route('GET', '/api/units/{id}/all_resources', 'Units', 'Every task sheet and resources zip of the unit, in one zip', {
      description:
        '`<CODE>-all-resources.zip`: each task sheet and resources zip, named by abbreviation, built fresh and streamed. Staff and ' +
        'enrolled students of the unit. See docs/api/units.md.',
      rest: { file: true },
    }),
  )
  .output(fileResult().meta({ contentMediaType: 'application/zip' }))
  .query(async ({ ctx }): Promise<FileResult> => {
    const entries = await unitResourceEntries(ctx.em, ctx.storage, ctx.unit.id);
    return { filename: `${ctx.unit.code}-all-resources.zip`, contentType: 'application/zip', data: writeZip(entries), asAttachment: true };
  });
