// Builds the demo unit through the service's own procedures, called in process through the tRPC
// server-side caller as the people who would do each step: the Admin sets up the teaching period,
// activity types and accounts; the convenor creates the unit, employs the tutors, adds streams,
// tutorials and task definitions, and enrols the class by uploading the unit CSV. No row is
// written directly, so the demo is only ever something the service itself could have made, and
// seeding exercises the same rules a user meets. `npm run seed:demo` and the unit-page bench use it.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { addDays, laterDay, toDay } from '../../src/domain/dates.ts';
import { dateForWeekAndDay, weekNumber, type PeriodCalendar } from '../../src/domain/weeks.ts';
import type { Services } from '../../src/trpc/context.ts';
import { UploadedFile } from '../../src/lib/files.ts';
import { signIn, type As } from '../lib/caller.ts';
import { buildScormPackage, QUIZ } from '../lib/scorm-package.ts';
import type { DemoOptions } from './options.ts';
import { convenorOf, studentsOf, tutorsOf } from './people.ts';
import { seedAssessmentSteps } from './assessment-steps.ts';
import { seedDiscussTimeouts } from './discuss-timeouts.ts';
import { seedCheckIns } from './check-ins.ts';
import { seedDiscussion } from './discussion.ts';
import { seedPrerequisites } from './prerequisites.ts';
import { seedMarking } from './marking.ts';
import { seedWork } from './work.ts';
import { ROLE } from '../../src/policy/index.ts';

export const DEMO_PERIOD = 'Demo';
const TEACHING_WEEKS = 12;
/** The break comes after this teaching week. */
const BREAK_AFTER_WEEK = 6;

const ACTIVITY_TYPES = [
  { name: 'Workshop', abbreviation: 'wrkshop', tutorial: 'W', location: 'Building B, room 2.0' },
  { name: 'Laboratory', abbreviation: 'lab', tutorial: 'L', location: 'Building T, lab 1.' },
  { name: 'Seminar', abbreviation: 'sem', tutorial: 'S', location: 'Building C, room 3.' },
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const TIMES = ['09:00', '11:00', '13:00', '15:00', '17:00'];
const TOPICS = [
  'Hello World',
  'Variables and Types',
  'Decisions',
  'Loops',
  'Functions',
  'Arrays',
  'Records',
  'Files',
  'Debugging',
  'Testing',
  'Recursion',
  'Searching',
  'Sorting',
  'Linked Lists',
  'Stacks and Queues',
  'Hash Tables',
  'Trees',
  'Graphs',
  'Objects',
  'Inheritance',
  'Interfaces',
  'Exceptions',
  'Concurrency',
  'Networking',
  'Databases',
  'User Interfaces',
  'Design Report',
  'Custom Project',
  'Code Review',
  'Portfolio Reflection',
];
const GRADE_LETTERS = ['P', 'C', 'D', 'HD'];

export type DemoStage = 'setup' | 'accounts' | 'unit' | 'staff' | 'streams' | 'tutorials' | 'task definitions' | 'enrolment' | 'work' | 'marking';

export interface DemoProgress {
  /** Called once with the number of steps the whole build takes, then after each step. */
  start?(total: number): void;
  step?(stage: DemoStage, done: number): void;
}

export interface DemoResult {
  /** True when the unit was there already and nothing was changed. */
  existed: boolean;
  unit: { id: number; code: string; name: string };
  period: { id: number; period: string; year: number };
  convenor: string;
  tutors: string[];
  /** Students who got the demo password. */
  signInStudents: string[];
  studentCount: number;
  tutorialCount: number;
  taskDefinitionCount: number;
  /** Tasks worked on and comments written by the work stage. */
  work: { tasks: number; comments: number };
  /** Users that existed already and kept their own password. */
  reusedUsers: string[];
  /** Milliseconds per stage, for the report. */
  timings: Partial<Record<DemoStage, number>>;
}

export interface SeedDemoInput {
  options: DemoOptions;
  /** The Admin the setup is done as (for `npm run seed:demo`, ADMIN_USERNAME). */
  adminUsername: string;
  /** The demo users' password (at least 8 characters). */
  password: string;
  progress?: DemoProgress;
}

/** Runs `step`, naming the stage in any error, and times the stage. */
async function timed<T>(timings: DemoResult['timings'], stage: DemoStage, step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await step();
  } catch (error) {
    throw new Error(`demo seed failed while building ${stage}: ${(error as Error).message}`, { cause: error });
  } finally {
    timings[stage] = (timings[stage] ?? 0) + Math.round(performance.now() - started);
  }
}

/** The Monday on or before `day`. */
function mondayOnOrBefore(day: string): string {
  const weekday = new Date(`${day}T00:00:00.000Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/**
 * The demo teaching period of the clock's year, created the first time: 12 teaching weeks from the
 * Monday three weeks ago, with a one-week break after week 6, so the unit is under way today.
 */
async function demoPeriod(admin: As, today: string): Promise<{ id: number; period: string; year: number; calendar: PeriodCalendar; endDay: string }> {
  const year = Number(today.slice(0, 4));
  const existing = (await admin().teachingPeriods.list({})).find((p) => p.period === DEMO_PERIOD && p.year === year);
  let id = existing?.id;
  if (!id) {
    const start = mondayOnOrBefore(addDays(today, -21));
    const calendar = { startDate: start, breaks: [{ startDate: addDays(start, 7 * BREAK_AFTER_WEEK), numberOfWeeks: 1 }] };
    const end = dateForWeekAndDay(calendar, TEACHING_WEEKS, 'Fri');
    const created = await admin().teachingPeriods.create({
      teaching_period: { period: DEMO_PERIOD, year, start_date: start, end_date: end, active_until: addDays(end, 28) },
    });
    id = created.id;
  }
  const detail = await admin().teachingPeriods.get({ id });
  if (detail.breaks.length === 0) {
    const start = detail.start_date.slice(0, 10);
    const breakStart = addDays(start, 7 * BREAK_AFTER_WEEK);
    // Only where a whole week fits before the end: a reused period may be short.
    if (addDays(breakStart, 7) <= detail.end_date.slice(0, 10)) {
      await admin().teachingPeriods.breaks.create({ teaching_period_id: id, start_date: breakStart, number_of_weeks: 1 });
    }
  }
  const breaks = await admin().teachingPeriods.breaks.list({ teaching_period_id: id });
  return {
    id,
    period: detail.period,
    year: detail.year,
    calendar: {
      startDate: detail.start_date.slice(0, 10),
      breaks: breaks.map((b) => ({ startDate: b.start_date.slice(0, 10), numberOfWeeks: b.number_of_weeks })),
    },
    endDay: detail.end_date.slice(0, 10),
  };
}

/** Builds the demo unit, or reports the one already there (matched by code in the demo period) without changing it. */
export async function seedDemo(services: Services, input: SeedDemoInput): Promise<DemoResult> {
  const { options, password, progress } = input;
  const timings: DemoResult['timings'] = {};
  const admin = await signIn(services, input.adminUsername);
  const today = toDay(services.clock.now());
  const convenorPerson = convenorOf(options.code);
  const tutorPeople = tutorsOf(options.code, options.tutors);
  const studentPeople = studentsOf(options.code, options.students);

  const { period, unitFound } = await timed(timings, 'setup', async () => {
    const found = await demoPeriod(admin, today);
    const units = await admin().units.list({ include_in_active: true });
    return { period: found, unitFound: units.find((u) => u.code === options.code && u.teaching_period_id === found.id) };
  });
  const periodOut = { id: period.id, period: period.period, year: period.year };

  if (unitFound) {
    const unit = await admin().units.get({ id: unitFound.id });
    const students = await admin().students.list({ unit_id: unit.id });
    return {
      existed: true,
      unit: { id: unit.id, code: unit.code, name: unit.name },
      period: periodOut,
      convenor: unit.staff.find((s) => s.user.id === unit.main_convenor_user_id)?.user.username ?? convenorPerson.username,
      tutors: unit.staff.filter((s) => s.role === ROLE.tutor).map((s) => s.user.username),
      signInStudents: studentPeople.slice(0, options.signInStudents).map((p) => p.username),
      studentCount: students.length,
      tutorialCount: unit.tutorials.length,
      taskDefinitionCount: unit.task_definitions.length,
      work: { tasks: 0, comments: 0 },
      reusedUsers: [],
      timings,
    };
  }

  const signInStudents = studentPeople.slice(0, options.signInStudents);
  const accounts = [convenorPerson, ...tutorPeople, ...signInStudents];
  const working = options.workDefinitions > 0 ? options.students : 0;
  const total = accounts.length + 1 + options.tutors + options.streams + options.tutorials + options.taskDefinitions + options.students + working;
  let done = 0;
  progress?.start?.(total);
  const advance = (stage: DemoStage, steps = 1) => {
    done += steps;
    progress?.step?.(stage, done);
  };

  // Accounts, as the Admin's "new user" dialog makes them; a user already there is kept as is.
  const reusedUsers: string[] = [];
  const accountsDone = await timed(timings, 'accounts', async () => {
    const known = new Map((await admin().users.list({})).map((u) => [u.username, u.id]));
    const ids = new Map<string, number>();
    for (const p of accounts) {
      let id = known.get(p.username);
      if (id === undefined) {
        const role = p === convenorPerson ? ROLE.convenor : p.studentId ? ROLE.student : ROLE.tutor;
        const user = await admin().users.create({
          user: {
            first_name: p.firstName,
            last_name: p.lastName,
            nickname: p.firstName,
            email: p.email,
            username: p.username,
            password,
            system_role: role,
            student_id: p.studentId,
            has_run_first_time_setup: true,
          },
        });
        id = user.id;
      } else {
        reusedUsers.push(p.username);
      }
      ids.set(p.username, id);
      advance('accounts');
    }
    return { ids, activityTypes: await ensureActivityTypes(admin, options.streams) };
  });
  const { ids: userIds, activityTypes } = accountsDone;

  const convenor = await signIn(services, convenorPerson.username);
  const unit = await timed(timings, 'unit', async () => {
    const created = await convenor().units.create({
      unit: {
        code: options.code,
        name: 'Introduction to Programming (demo)',
        description:
          `A demo unit: ${options.students} students, ${options.tutors} tutors, ${options.tutorials} tutorials in ${options.streams} streams and ` +
          `${options.taskDefinitions} task definitions.`,
        teaching_period_id: period.id,
        // Tasks left in discuss are warned, then sent back (docs/discuss-timeouts.md; scripts/demo/discuss-timeouts.ts).
        discuss_timeout_enabled: true,
      },
    });
    advance('unit');
    return created;
  });

  await timed(timings, 'staff', async () => {
    for (const p of tutorPeople) {
      await convenor().unitRoles.create({ unit_id: unit.id, user_id: userIds.get(p.username)!, role: ROLE.tutor });
      advance('staff');
    }
  });

  const streams = await timed(timings, 'streams', async () => {
    const made: { abbreviation: string; type: (typeof ACTIVITY_TYPES)[number] }[] = [];
    for (let s = 0; s < options.streams; s++) {
      const type = ACTIVITY_TYPES[s % ACTIVITY_TYPES.length]!;
      const { tutorial_stream } = await convenor().units.tutorialStreams.create({
        unit_id: unit.id,
        activity_type_abbr: activityTypes[s % activityTypes.length]!,
      });
      made.push({ abbreviation: tutorial_stream.abbreviation, type });
      advance('streams');
    }
    return made;
  });

  // Tutorials spread evenly over the streams, and over the tutors in turn.
  const perStream = streams.map((_, s) => Math.floor(options.tutorials / streams.length) + (s < options.tutorials % streams.length ? 1 : 0));
  const tutorialsByStream = await timed(timings, 'tutorials', async () => {
    const byStream: string[][] = streams.map(() => []);
    let n = 0;
    for (let s = 0; s < streams.length; s++) {
      const stream = streams[s]!;
      const capacity = Math.ceil(options.students / perStream[s]!) + 5;
      for (let k = 0; k < perStream[s]!; k++, n++) {
        const cycle = Math.floor(s / ACTIVITY_TYPES.length);
        const abbreviation = `${stream.type.tutorial}${cycle ? cycle + 1 : ''}-${String(k + 1).padStart(2, '0')}`;
        const tutor = tutorPeople[n % tutorPeople.length]!;
        await convenor().tutorials.create({
          tutorial: {
            unit_id: unit.id,
            tutor_id: userIds.get(tutor.username)!,
            capacity,
            abbreviation,
            meeting_location: `${stream.type.location}${(k % 9) + 1}`,
            meeting_day: DAYS[k % DAYS.length]!,
            meeting_time: TIMES[Math.floor(k / DAYS.length) % TIMES.length]!,
            tutorial_stream_abbr: stream.abbreviation,
          },
        });
        byStream[s]!.push(abbreviation);
        advance('tutorials');
      }
    }
    return byStream;
  });

  await timed(timings, 'task definitions', async () => {
    const weeks = Math.max(1, weekNumber(period.calendar, period.endDay));
    const lastDay = (day: string) => (day > period.endDay ? period.endDay : day);
    const count = options.taskDefinitions;
    const perWeek = new Map<number, number>();
    for (let i = 0; i < count; i++) {
      const week = 1 + Math.floor((i * Math.max(1, weeks - 2)) / count);
      const nth = (perWeek.get(week) ?? 0) + 1;
      perWeek.set(week, nth);
      const share = i / count;
      const grade = share < 0.5 ? 0 : share < 0.75 ? 1 : share < 0.9 ? 2 : 3;
      const code = grade === 0 || i % 3 === 0;
      const topic = TOPICS[i % TOPICS.length]! + (i >= TOPICS.length ? ` ${Math.floor(i / TOPICS.length) + 1}` : '');
      const start = lastDay(dateForWeekAndDay(period.calendar, week, 'Mon'));
      const target = lastDay(dateForWeekAndDay(period.calendar, Math.min(week + 1, weeks), 'Fri'));
      const due = lastDay(dateForWeekAndDay(period.calendar, Math.min(week + 3, weeks), 'Fri'));
      // The last definition (of two or more) is also an online test: a small SCORM 2004 quiz.
      const test = count >= 2 && i === count - 1;
      const created = await convenor().units.taskDefinitions.create({
        unit_id: unit.id,
        task_def: {
          name: topic,
          abbreviation: `${week}.${nth}${GRADE_LETTERS[grade]}`,
          description: test
            ? `Week ${week}: ${topic}. Take the online quiz (two attempts, review allowed), then submit your work for feedback from your tutor.`
            : `Week ${week}: ${topic}. Submit your work for feedback from your tutor.`,
          ...(test && { scorm_enabled: true, scorm_allow_review: true, scorm_bypass_test: true, scorm_attempt_limit: 2 }),
          weighting: grade + 1,
          target_grade: grade,
          start_date: start,
          target_date: laterDay(target, start),
          due_date: laterDay(due, target),
          restrict_status_updates: false,
          upload_requirements: JSON.stringify(
            code
              ? [
                  { key: 'file0', name: 'Program code', type: 'code' },
                  { key: 'file1', name: 'Screenshot', type: 'image' },
                ]
              : [{ key: 'file0', name: 'Report', type: 'document' }],
          ),
          plagiarism_checks: JSON.stringify(code ? [{ key: 'file0', type: 'moss c', pattern: '*.c' }] : []),
          plagiarism_warn_pct: 80,
          is_graded: grade === 3,
          max_quality_pts: grade >= 2 ? 5 : 0,
          // Most work is in the first stream; every fourth task belongs to the second (labs).
          tutorial_stream_abbr: streams[i % 4 === 3 && streams.length > 1 ? 1 : 0]!.abbreviation,
        },
      });
      if (test) await uploadQuiz(convenor, unit.id, created.id);
      advance('task definitions');
    }
  });

  // The class, enrolled as a convenor does it: the unit CSV, one tutorial per stream each,
  // uploaded in batches (each upload is a fixed number of statements, whatever its size).
  await timed(timings, 'enrolment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'demo-enrol-'));
    try {
      for (let from = 0; from < studentPeople.length; from += options.batch) {
        const batch = studentPeople.slice(from, from + options.batch);
        const rows = batch.map((p, j) => {
          const i = from + j;
          const row: Record<string, string> = {
            unit_code: options.code,
            username: p.username,
            student_id: p.studentId!,
            first_name: p.firstName,
            last_name: p.lastName,
            email: p.email,
            campus: '',
          };
          for (const [s, stream] of streams.entries()) row[stream.abbreviation] = tutorialsByStream[s]![i % perStream[s]!]!;
          return row;
        });
        const path = join(dir, `enrol-${from}.csv`);
        writeFileSync(path, stringify(rows, { header: true }));
        const result = await convenor().csv.units.enrol({ id: unit.id, file: new UploadedFile('enrol.csv', 'text/csv', path, statSync(path).size) });
        const failed = [...result.errors, ...result.ignored];
        if (failed.length) throw new Error(`the CSV upload refused ${failed.length} rows, first: ${failed[0]!.message} (${failed[0]!.row.username})`);
        rmSync(path);
        advance('enrolment', batch.length);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const work = working ? await timed(timings, 'work', () => seedWork(services, unit.id, options, (n) => advance('work', n))) : { tasks: 0, comments: 0 };
  await timed(timings, 'marking', () => seedMarking(services, unit.id));
  await timed(timings, 'marking', () => seedAssessmentSteps(services, unit.id));
  await timed(timings, 'marking', () => seedDiscussTimeouts(services, unit.id));
  await timed(timings, 'marking', () => seedCheckIns(services, unit.id));
  await timed(timings, 'marking', () => seedDiscussion(services, unit.id));
  await timed(timings, 'marking', () => seedPrerequisites(services, unit.id));

  return {
    existed: false,
    unit: { id: unit.id, code: unit.code, name: unit.name },
    period: periodOut,
    convenor: convenorPerson.username,
    tutors: tutorPeople.map((p) => p.username),
    signInStudents: signInStudents.map((p) => p.username),
    studentCount: studentPeople.length,
    tutorialCount: options.tutorials,
    taskDefinitionCount: options.taskDefinitions,
    work,
    reusedUsers,
    timings,
  };
}

/**
 * The activity type abbreviation each of the first `streams` types goes by: one already there
 * with the same abbreviation or name is used as it is; the Admin creates the others.
 */
async function ensureActivityTypes(admin: As, streams: number): Promise<string[]> {
  const have = await admin().activityTypes.list({});
  const abbreviations: string[] = [];
  for (const type of ACTIVITY_TYPES.slice(0, Math.min(streams, ACTIVITY_TYPES.length))) {
    const found = have.find((t) => t.abbreviation === type.abbreviation) ?? have.find((t) => t.name.toLowerCase() === type.name.toLowerCase());
    if (found) abbreviations.push(found.abbreviation);
    else abbreviations.push((await admin().activityTypes.create({ activity_type: { name: type.name, abbreviation: type.abbreviation } })).abbreviation);
  }
  return abbreviations;
}

/** The online test's package: the quiz of scripts/lib/scorm-package.ts, uploaded as a convenor does. */
async function uploadQuiz(convenor: As, unitId: number, taskDefId: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'demo-scorm-'));
  try {
    const path = join(dir, 'quiz.zip');
    writeFileSync(path, await buildScormPackage(QUIZ));
    await convenor().units.taskDefinitions.scormDataUpload({
      unit_id: unitId,
      task_def_id: taskDefId,
      file: new UploadedFile('quiz.zip', 'application/zip', path, statSync(path).size),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
