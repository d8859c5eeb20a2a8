// The demo seed's check-ins (docs/check-ins.md): each of the first few students' tutors records a
// check-in or two in the weeks so far (one with a URL as evidence), and a student replies, made by
// the operations the routes use, in one transaction. The report then shows who has gone quiet.
import { db } from '../../src/db/kysely.ts';
import { createEngagement } from '../../src/operations/projects/engagements/save-engagement.ts';
import { replyToEngagement } from '../../src/operations/projects/engagements/reply-to-engagement.ts';
import { unitCalendar } from '../../src/operations/units/rollover-unit.ts';
import { Unit, type IUnit } from '../../schema/index.ts';
import { dateForWeek, weekNumber } from '../../src/domain/weeks.ts';
import { toDay } from '../../src/domain/dates.ts';
import type { Services } from '../../src/trpc/context.ts';

const STUDENTS = 12;
const TYPES = ['attendance', 'check-in', 'one-to-one'];

export async function seedCheckIns(services: Services, unitId: number): Promise<{ engagements: number; replies: number }> {
  const now = services.clock.now();
  return services.orm.em.fork().transactional(async (em) => {
    const unit = (await em.findOneOrFail(Unit, { id: unitId })) as IUnit;
    const cal = await unitCalendar(em, unit);
    const weeksSoFar = Math.min(Math.max(weekNumber(cal, toDay(now)), 1), 12);
    // The first students (by id) with the tutor of their first tutorial, else the main convenor.
    const students = await db(em)
      .selectFrom('projects as p')
      .leftJoin('tutorial_enrolments as te', 'te.project_id', 'p.id')
      .leftJoin('tutorials as t', 't.id', 'te.tutorial_id')
      .leftJoin('unit_roles as ur', 'ur.id', 't.tutor_id')
      .innerJoin('units as u', 'u.id', 'p.unit_id')
      .leftJoin('unit_roles as mc', 'mc.id', 'u.main_convenor_id')
      .select(['p.id', 'p.user_id', 'ur.user_id as tutor_id', 'mc.user_id as convenor_id'])
      .where('p.unit_id', '=', unitId)
      .where('p.enrolled', '=', true)
      .distinctOn('p.id')
      .orderBy('p.id')
      .orderBy('te.id')
      .limit(STUDENTS)
      .execute();
    const deps = { storage: services.storage, afterCommit: (fn: () => void) => fn(), now };
    let engagements = 0;
    let replies = 0;
    for (const [i, s] of students.entries()) {
      const author = s.tutor_id ?? s.convenor_id;
      if (author === null) continue;
      // Every third student has gone quiet since week 1; the others checked in in recent weeks.
      const weeks = i % 3 === 2 ? [1] : [Math.max(1, weeksSoFar - 1), weeksSoFar];
      for (const [n, week] of [...new Set(weeks)].entries()) {
        const occurredAt = new Date(`${dateForWeek(cal, week)}T0${1 + (i % 8)}:00:00.000Z`);
        if (occurredAt > now) continue;
        const made = await createEngagement(em, deps, s.id, author, {
          engagement_type: TYPES[(i + n) % TYPES.length]!,
          note: n === 0 ? "Went through the week's task and the next steps together." : 'Checked in after the workshop: on track.',
          occurred_at: occurredAt,
          ...(n === 0 && i % 2 === 0 ? { evidence_url: 'https://example.edu/attendance/register' } : {}),
        });
        engagements++;
        if (n === 0 && i % 4 === 0) {
          await replyToEngagement(em, s.id, made.id, s.user_id, 'Thanks, that helped.', now);
          replies++;
        }
      }
    }
    return { engagements, replies };
  });
}
