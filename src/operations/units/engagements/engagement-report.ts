// GET /api/units/{unit_id}/engagements/report (docs/check-ins.md): engagements per tutorial per
// teaching week, and per student the last one and the weeks since, so a unit sees who has gone
// quiet. A fixed number of statements whatever the unit's size: the unit's calendar (its teaching
// period and breaks: two, none without a period), its enrolled students with their tutorials
// (one), and the engagements counted per project and UTC day (one, grouped in PostgreSQL). The
// weeks are worked out from the days in src/domain/engagements.ts.
import { sql } from 'kysely';
import type { IUnit } from '../../../../schema/index.ts';
import { db } from '../../../db/kysely.ts';
import type { Em } from '../../../db/orm.ts';
import { toDay } from '../../../domain/dates.ts';
import { writeCsv } from '../../../domain/csv.ts';
import { engagementReport, engagementReportTable, QUIET_AFTER_WEEKS, type TutorialReportRow } from '../../../domain/engagements.ts';
import { csvDownload, type FileResult } from '../../../lib/files.ts';
import { dateForWeek, weekNumber } from '../../../domain/weeks.ts';
import { unitCalendar } from '../rollover-unit.ts';

export interface EngagementReportOut {
  unit_id: number;
  /** The teaching week of today (or of the unit's last day, once it is over); 0 or less before it starts. */
  current_week: number;
  weeks: { week: number; start_date: string }[];
  quiet_after_weeks: number;
  tutorials: TutorialReportRow[];
}

/** `onlyTutorOf`: the rows of the tutorials this user teaches (a tutor's view); null for every tutorial. */
export async function engagementReportOf(em: Em, unit: IUnit, onlyTutorOf: number | null, now: Date): Promise<EngagementReportOut> {
  const cal = await unitCalendar(em, unit);
  const today = toDay(now);
  const endDay = String(unit.endDate).slice(0, 10);
  // Days as 'YYYY-MM-DD' sort as text: the earlier of today and the unit's last day.
  const currentWeek = weekNumber(cal, [today, endDay].sort()[0]!);
  const k = db(em);
  const students = await k
    .selectFrom('projects as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .leftJoin('tutorial_enrolments as te', 'te.project_id', 'p.id')
    .leftJoin('tutorials as t', 't.id', 'te.tutorial_id')
    .leftJoin('unit_roles as ur', 'ur.id', 't.tutor_id')
    .leftJoin('users as tu', 'tu.id', 'ur.user_id')
    .select([
      'p.id as project_id',
      'u.username',
      sql<string>`u.first_name || ' ' || u.last_name`.as('name'),
      't.id as tutorial_id',
      't.abbreviation as tutorial',
      sql<string | null>`tu.first_name || ' ' || tu.last_name`.as('tutor_name'),
    ])
    .where('p.unit_id', '=', unit.id)
    .where('p.enrolled', '=', true)
    .$if(onlyTutorOf !== null, (q) => q.where('ur.user_id', '=', onlyTutorOf!))
    .orderBy(sql`t.abbreviation nulls last`)
    .orderBy('u.last_name')
    .orderBy('u.first_name')
    .orderBy('p.id')
    .execute();
  const days = await k
    .selectFrom('engagements as e')
    .innerJoin('projects as p', 'p.id', 'e.project_id')
    .select([
      'e.project_id',
      sql<string>`to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD')`.as('day'),
      sql<number>`count(*)::int`.as('count'),
      sql<string>`max(e.occurred_at)`.as('last_at'),
    ])
    .where('p.unit_id', '=', unit.id)
    .where('p.enrolled', '=', true)
    .groupBy(['e.project_id', sql`2`])
    .execute();
  const last = new Map<number, string>();
  for (const d of days) {
    const at = new Date(d.last_at).toISOString();
    if ((last.get(d.project_id) ?? '') < at) last.set(d.project_id, at);
  }
  const weeks = Array.from({ length: Math.max(0, currentWeek) }, (_, i) => ({ week: i + 1, start_date: dateForWeek(cal, i + 1) }));
  return {
    unit_id: unit.id,
    current_week: currentWeek,
    weeks,
    quiet_after_weeks: QUIET_AFTER_WEEKS,
    tutorials: engagementReport(cal, currentWeek, students, days, last),
  };
}

/** `<CODE>-check-ins.csv`: the same report, a row per student per tutorial, a column per week. */
export async function engagementReportCsv(em: Em, unit: IUnit, onlyTutorOf: number | null, now: Date): Promise<FileResult> {
  const report = await engagementReportOf(em, unit, onlyTutorOf, now);
  const { header, rows } = engagementReportTable(report.weeks.length, report.tutorials);
  return csvDownload(`${unit.code}-check-ins.csv`, writeCsv(header, rows));
}
