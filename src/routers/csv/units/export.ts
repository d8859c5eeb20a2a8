import { db } from '../../../db/kysely.ts';
import { writeCsv } from '../../../domain/csv.ts';
import { csvDownload, fileResult } from '../../../trpc/files.ts';
import { unitQuery } from '../../../trpc/scopes/index.ts';
import { loadUnitStudents } from '../../../operations/students/load-unit-students.ts';
import { unitCsvInput } from './schemas.ts';

export const downloadStudents = unitQuery(unitCsvInput, {
  field: 'id',
  action: 'download_unit_csv',
  refused: (id) => `Not authorised to download CSV of students in unit ${id}`,
})
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/csv/units/{id}',
      tags: ['Units'],
      summary: "The unit's enrolled students as CSV (staff of the unit, or Admin)",
      description:
        '`<CODE>-Students.csv`: `unit_code, campus, username, student_id, preferred_name, first_name, last_name, email`, then the tutorial abbreviation per stream (or one `tutorial` column). The same format the enrol upload reads. Students without a campus are included.',
    },
    rest: { file: true },
  })
  .output(fileResult().meta({ contentMediaType: 'text/csv' }))
  .query(async ({ ctx }) => {
    const k = db(ctx.em);
    const [students, streams, tutorials, campuses] = [
      await loadUnitStudents(ctx.em, ctx.unit.id),
      await k.selectFrom('tutorial_streams').select(['abbreviation']).where('unit_id', '=', ctx.unit.id).orderBy('abbreviation').execute(),
      await k.selectFrom('tutorials').select(['id', 'abbreviation']).where('unit_id', '=', ctx.unit.id).execute(),
      await k.selectFrom('campuses').select(['id', 'abbreviation']).execute(),
    ];
    const streamKeys = streams.length ? streams.map((s) => s.abbreviation) : ['tutorial'];
    const tutorialAbbr = new Map(tutorials.map((t) => [t.id, t.abbreviation]));
    const campusAbbr = new Map(campuses.map((c) => [c.id, c.abbreviation]));
    const rows = students.map((s) => {
      const inStream = (key: string) => s.tutorial_enrolments.find((e) => (streams.length ? e.stream_abbr === key : true))?.tutorial_id;
      return [
        ctx.unit.code,
        s.campus_id === null ? '' : (campusAbbr.get(s.campus_id) ?? ''),
        s.student.username,
        s.student.student_id ?? '',
        s.student.nickname ?? '',
        s.student.first_name,
        s.student.last_name,
        s.student.email,
        ...streamKeys.map((key) => tutorialAbbr.get(inStream(key) ?? -1) ?? ''),
      ];
    });
    const header = ['unit_code', 'campus', 'username', 'student_id', 'preferred_name', 'first_name', 'last_name', 'email', ...streamKeys];
    return csvDownload(`${ctx.unit.code}-Students.csv`, writeCsv(header, rows), 'text/csv');
  });
