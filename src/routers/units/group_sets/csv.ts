// GET and POST /api/units/{unit_id}/group_sets/{group_set_id}/groups/csv: a set's groups as CSV,
// and groups set up from one (unit :update).
import { db } from '../../../db/kysely.ts';
import { writeCsv } from '../../../domain/csv.ts';
import { router } from '../../../trpc/core.ts';
import { csvDownload, fileResult } from '../../../trpc/files.ts';
import { findGroupSet, unitMutation, unitQuery } from '../../../trpc/scopes/index.ts';
import { importGroupsCsv, GROUP_CSV_COLUMNS, GROUP_CSV_REQUIRED } from './csv-import.ts';
import { csvUploadOut, groupSetCsvInput, groupSetCsvUploadInput, uploadedRows } from './csv-upload.ts';

const PATH = '/api/units/{unit_id}/group_sets/{group_set_id}/groups/csv';

/** The file name the original gives: `<CODE>-<set name>-<what>.csv`. */
export const csvName = (code: string, setName: string, what: string) => `${code}-${setName}-${what}.csv`;

export const downloadGroupsCsv = unitQuery(groupSetCsvInput, { action: 'update', refused: 'Not authorised to download csv of groups for this unit' })
  .meta({
    openapi: {
      method: 'GET',
      path: PATH,
      tags: ['Group sets and groups'],
      summary: "A group set's groups as CSV (unit convenor or Admin)",
      description:
        '`<CODE>-<set>-groups.csv` with `group_name, capacity_adjustment, tutorial, campus` (tutorial and campus by abbreviation), by group name: the format the upload reads.',
    },
    rest: { file: true },
  })
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(async ({ ctx, input }) => {
    const set = await findGroupSet(ctx.em, ctx.unit.id, input.group_set_id);
    const rows = await db(ctx.em)
      .selectFrom('groups as g')
      .innerJoin('tutorials as t', 't.id', 'g.tutorial_id')
      .leftJoin('campuses as c', 'c.id', 't.campus_id')
      .select(['g.name', 'g.capacity_adjustment', 't.abbreviation', 'c.abbreviation as campus'])
      .where('g.group_set_id', '=', set.id)
      .orderBy('g.name')
      .execute();
    return csvDownload(
      csvName(ctx.unit.code, set.name, 'groups'),
      writeCsv(
        GROUP_CSV_COLUMNS,
        rows.map((r) => [r.name, r.capacity_adjustment, r.abbreviation, r.campus]),
      ),
    );
  });

export const uploadGroupsCsv = unitMutation(groupSetCsvUploadInput, { action: 'update', refused: 'Not authorised to upload csv of groups for this unit' })
  .meta({
    openapi: {
      method: 'POST',
      path: PATH,
      tags: ['Group sets and groups'],
      summary: 'Set up groups from a CSV (unit convenor or Admin)',
      description:
        'Multipart `file` with the columns `group_name, tutorial, capacity_adjustment` and an optional `campus`, in any case and order (a UTF-8 byte-order mark, CRLF and quoted fields are fine). Each row finds or creates the group by name and puts it in the tutorial with that abbreviation — a tutorial the unit lacks is created (Monday, 8:00am, TBA, the main convenor as tutor, on the row\'s campus by abbreviation or name) — with that capacity adjustment (blank: 0). Moving a group of a keep-in-class set moves its members\' tutorial too, as the group update does. A row that fails changes nothing and is reported; the others still apply. A file that is not text is refused (403 "File given is not a csv file - detected <type>"); a missing column is a 400. Answers 200 `{result}`, a sentence saying what was done (groups created, updated, unchanged, tutorials created, rows ignored, row errors), with the rows behind it in `success`, `errors` and `ignored` (`{row, message}`).',
    },
    rest: { status: 200, upload: {} },
  })
  .output(csvUploadOut)
  .mutation(async ({ ctx, input }) => {
    const set = await findGroupSet(ctx.em, ctx.unit.id, input.group_set_id);
    const rows = await uploadedRows(input.file, GROUP_CSV_REQUIRED);
    return importGroupsCsv(ctx.em, ctx.unit, set, rows);
  });

/** .../groups/csv (GET download, POST upload). */
export const groupsCsvRouter = router({ download: downloadGroupsCsv, upload: uploadGroupsCsv });
