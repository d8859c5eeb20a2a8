import { sql } from 'kysely';
import type { WebcalReminderUnit } from '../../../schema/enums.ts';
import { db } from '../../db/kysely.ts';
import type { Em } from '../../db/orm.ts';
import type { FeedDefinition, FeedSettings } from '../../domain/webcal-events.ts';

export interface Feed {
  settings: FeedSettings;
  definitions: FeedDefinition[];
}

const day = (value: unknown) => String(value).slice(0, 10);

/**
 * The calendar with this guid and the task definitions it shows, in one statement whatever their
 * number; null when no calendar has the guid (a disabled calendar is deleted, a changed guid
 * replaced). Shown: definitions of active units running on `today` in which the owner is enrolled
 * and that the calendar does not exclude, up to the project's target grade, with the owner's
 * granted weeks when the task exists.
 */
export async function loadFeed(em: Em, guid: string, today: string): Promise<Feed | null> {
  const { rows } = await sql<{
    include_start_dates: boolean;
    reminder_time: number | null;
    reminder_unit: WebcalReminderUnit | null;
    id: number | null;
    unit_id: number;
    code: string;
    abbreviation: string;
    name: string;
    start_date: string;
    target_date: string;
    deadline: string;
    extensions: number | null;
  }>`
    select w.include_start_dates, w.reminder_time, w.reminder_unit,
           d.id, u.id as unit_id, u.code, d.abbreviation, d.name,
           d.start_date, d.target_date, coalesce(d.due_date, u.end_date) as deadline, t.extensions
    from webcals w
    left join (
      projects p
      join units u on u.id = p.unit_id
      join task_definitions d on d.unit_id = u.id and d.target_grade <= p.target_grade
      left join tasks t on t.project_id = p.id and t.task_definition_id = d.id
    ) on p.user_id = w.user_id and p.enrolled and u.active
         and u.start_date <= ${today}::date and u.end_date >= ${today}::date
         and not exists (select 1 from webcal_unit_exclusions x where x.webcal_id = w.id and x.unit_id = u.id)
    where w.guid = ${guid}
    order by u.code, d.target_date, d.abbreviation, d.id`.execute(db(em));
  const first = rows[0];
  if (!first) return null;
  const reminder = first.reminder_time !== null && first.reminder_unit !== null ? { time: first.reminder_time, unit: first.reminder_unit } : null;
  return {
    settings: { includeStartDates: first.include_start_dates, reminder },
    definitions: rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: r.id!,
        unitId: r.unit_id,
        unitCode: r.code,
        abbreviation: r.abbreviation,
        name: r.name,
        startDate: day(r.start_date),
        targetDate: day(r.target_date),
        deadline: day(r.deadline),
        extensions: r.extensions,
      })),
  };
}
