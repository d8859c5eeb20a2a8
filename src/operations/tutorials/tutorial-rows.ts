import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';

/** A tutorial as the unit shows it; `tutor_id` is the tutor's user id. Absent values are left out. */
export interface TutorialOut {
  id: number;
  meeting_day: string;
  meeting_time: string;
  meeting_location: string;
  abbreviation: string;
  campus_id?: number;
  capacity: number;
  tutorial_stream_abbr?: string;
  num_students: number;
  tutor_id?: number;
}

function tutorialRows(em: Em) {
  return db(em)
    .selectFrom('tutorials as t')
    .leftJoin('tutorial_streams as s', 's.id', 't.tutorial_stream_id')
    .leftJoin('unit_roles as r', 'r.id', 't.tutor_id')
    .select((eb) => [
      't.id',
      't.unit_id',
      't.meeting_day',
      't.meeting_time',
      't.meeting_location',
      't.abbreviation',
      't.campus_id',
      't.capacity',
      's.abbreviation as tutorial_stream_abbr',
      'r.user_id as tutor_id',
      // Enrolled students only: a withdrawn student keeps the enrolment but is not counted.
      eb
        .selectFrom('tutorial_enrolments as e')
        .innerJoin('projects as p', 'p.id', 'e.project_id')
        .whereRef('e.tutorial_id', '=', 't.id')
        .where('p.enrolled', '=', true)
        .select((c) => c.fn.countAll<string>().as('n'))
        .as('num_students'),
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof tutorialRows>['execute']>>[number];

function toTutorial(row: Row): TutorialOut {
  const out: TutorialOut = {
    id: row.id,
    meeting_day: row.meeting_day,
    meeting_time: row.meeting_time,
    meeting_location: row.meeting_location,
    abbreviation: row.abbreviation,
    capacity: row.capacity,
    num_students: Number(row.num_students ?? 0),
  };
  if (row.campus_id !== null) out.campus_id = row.campus_id;
  if (row.tutorial_stream_abbr !== null) out.tutorial_stream_abbr = row.tutorial_stream_abbr;
  if (row.tutor_id !== null) out.tutor_id = row.tutor_id;
  return out;
}

/** Tutorials of several units in one query, grouped by unit (the `tutorials` of GET /api/units/{id}). */
export async function tutorialsOfUnits(em: Em, unitIds: readonly number[]): Promise<Map<number, TutorialOut[]>> {
  const byUnit = new Map<number, TutorialOut[]>(unitIds.map((id) => [id, []]));
  if (unitIds.length === 0) return byUnit;
  const rows = await tutorialRows(em)
    .where('t.unit_id', 'in', [...unitIds])
    .orderBy('t.id')
    .execute();
  for (const row of rows) byUnit.get(row.unit_id)?.push(toTutorial(row));
  return byUnit;
}

/** A unit's tutorials, in one query. */
export async function tutorialsOfUnit(em: Em, unitId: number): Promise<TutorialOut[]> {
  return (await tutorialsOfUnits(em, [unitId])).get(unitId) ?? [];
}

/** One tutorial by id, in one query. */
export async function tutorialById(em: Em, id: number): Promise<TutorialOut | null> {
  const row = await tutorialRows(em).where('t.id', '=', id).executeTakeFirst();
  return row ? toTutorial(row) : null;
}
