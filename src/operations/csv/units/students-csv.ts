import type { IUnit } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { writeCsv } from '../../../domain/csv.ts';
import { csvDownload, type FileResult } from '../../../lib/files.ts';
import { engagementCountsByProject } from '../../projects/engagements/engagement-counts.ts';
import { loadUnitStudents } from '../../students/load-unit-students.ts';

/**
 * `<CODE>-Students.csv`: the unit's enrolled students, with their campus and the tutorial of each
 * stream (or one `tutorial` column): the format the enrol upload reads. The last column counts each
 * student's check-ins (docs/check-ins.md), in one grouped statement; the upload ignores it.
 */
export async function studentsCsv(em: Em, unit: Pick<IUnit, 'id' | 'code'>): Promise<FileResult> {
  const k = db(em);
  const [students, streams, tutorials, campuses, engagements] = [
    await loadUnitStudents(em, unit.id),
    await k.selectFrom('tutorial_streams').select(['abbreviation']).where('unit_id', '=', unit.id).orderBy('abbreviation').execute(),
    await k.selectFrom('tutorials').select(['id', 'abbreviation']).where('unit_id', '=', unit.id).execute(),
    await k.selectFrom('campuses').select(['id', 'abbreviation']).execute(),
    await engagementCountsByProject(em, unit.id),
  ];
  const streamKeys = streams.length ? streams.map((s) => s.abbreviation) : ['tutorial'];
  const tutorialAbbr = new Map(tutorials.map((t) => [t.id, t.abbreviation]));
  const campusAbbr = new Map(campuses.map((c) => [c.id, c.abbreviation]));
  const rows = students.map((s) => {
    const inStream = (key: string) => s.tutorial_enrolments.find((e) => (streams.length ? e.stream_abbr === key : true))?.tutorial_id;
    return [
      unit.code,
      s.campus_id === null ? '' : (campusAbbr.get(s.campus_id) ?? ''),
      s.student.username,
      s.student.student_id ?? '',
      s.student.nickname ?? '',
      s.student.first_name,
      s.student.last_name,
      s.student.email,
      ...streamKeys.map((key) => tutorialAbbr.get(inStream(key) ?? -1) ?? ''),
      engagements.get(s.id) ?? 0,
    ];
  });
  const header = ['unit_code', 'campus', 'username', 'student_id', 'preferred_name', 'first_name', 'last_name', 'email', ...streamKeys, 'engagements'];
  return csvDownload(`${unit.code}-Students.csv`, writeCsv(header, rows), 'text/csv');
}
