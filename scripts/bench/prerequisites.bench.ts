// Task prerequisites (docs/prerequisites.md): the statements of the student's task lists and of the
// convenor's inbox, with prerequisites defined, at 30 and at 300 students. Each unit has 8
// definitions, a chain of prerequisite links between them (and one definition needing two), and
// every student has a task of each in a mix of statuses, so some are locked and some not. The
// links are written with plain SQL, so the same bench runs on a service without prerequisites
// (the figure before) and with them. Prints, per read, the statements of one request (the fewest
// of three: a session lookup the cache answers is not counted twice), its p50 and the answer's
// size; the statements must be equal at both sizes.
import { sql } from 'kysely';
import { Project, Task, TaskDefinition, Unit, UnitRole, User } from '../../schema/index.ts';
import { db } from '../../src/db/kysely.ts';
import type { Orm } from '../../src/db/orm.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import { ROLE } from '../../src/policy/index.ts';
import { withBench } from './setup.ts';
import { quantile, statementsOf } from './support.ts';

const SIZES = [30, 300] as const;
const DEFINITIONS = 8;
const SAMPLES = Number(process.env.BENCH_PREREQUISITE_SAMPLES ?? 20);
const STATUSES = ['complete', 'ready_for_feedback', 'working_on_it', 'not_started', 'discuss', 'fix_and_resubmit'] as const;

interface Class {
  unitId: number;
  convenor: string;
  student: string;
  studentProject: number;
}

async function seedClass(orm: Orm, code: string, count: number): Promise<Class> {
  const em = orm.em.fork();
  const unit = em.create(Unit, {
    code,
    name: code,
    description: code,
    startDate: '2026-03-02',
    endDate: '2026-12-01',
    active: true,
    teachingPeriod: null,
    overseerImage: null,
  });
  const person = (name: string, role: string, username = name.toLowerCase()) =>
    em.create(User, {
      username,
      email: `${username}@example.edu`,
      firstName: 'F',
      lastName: username,
      systemRole: role as never,
      passwordHash: null,
      hasRunFirstTimeSetup: true,
    });
  const convenor = person(`${code}-convenor`, ROLE.convenor);
  em.create(UnitRole, { user: convenor, unit, role: ROLE.convenor } as never);
  const tds = Array.from({ length: DEFINITIONS }, (_, i) =>
    em.create(TaskDefinition, {
      unit,
      name: `Task ${i + 1}`,
      abbreviation: `T${i + 1}`,
      description: 'A task',
      startDate: '2026-03-02',
      targetDate: `2026-04-${String(i + 10).padStart(2, '0')}`,
      dueDate: null,
      targetGrade: 0,
    } as never),
  );
  const projects = Array.from({ length: count }, (_, i) =>
    em.create(Project, {
      user: person(`${code}-s${i}`, ROLE.student),
      unit,
      campus: null,
      enrolled: true,
      targetGrade: 0,
      compilePortfolio: false,
      portfolioProductionDate: null,
    }),
  );
  for (const [p, project] of projects.entries()) {
    for (const [d, td] of tds.entries()) {
      const status = STATUSES[(p + d) % STATUSES.length];
      if (status === 'not_started') continue; // no task row: counts as not started
      em.create(Task, { project, taskDefinition: td, status } as never);
    }
  }
  await em.flush();
  // T(i+1) needs T(i) complete (or ready for feedback on odd links); T8 also needs T1 discussed.
  const links = tds.slice(1).map((td, i) => ({ dependent: td.id, prerequisite: tds[i]!.id, status: i % 2 === 0 ? 'complete' : 'ready_for_feedback' }));
  links.push({ dependent: tds[DEFINITIONS - 1]!.id, prerequisite: tds[0]!.id, status: 'discuss' });
  const at = new Date().toISOString();
  await sql`insert into task_prerequisites (task_definition_id, prerequisite_id, task_status, created_at, updated_at)
    values ${sql.join(links.map((l) => sql`(${l.dependent}, ${l.prerequisite}, ${l.status}, ${at}::timestamptz, ${at}::timestamptz)`))}`.execute(db(em));
  return { unitId: unit.id, convenor: convenor.username, student: projects[1]!.user.username, studentProject: projects[1]!.id };
}

async function get(url: string, headers: Record<string, string>): Promise<number> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return text.length;
}

await withBench(
  async () => {},
  async ({ orm, service }) => {
    const classes = new Map<number, Class>();
    for (const size of SIZES) classes.set(size, await seedClass(orm, `PRE${size}`, size));
    await orm.em.getConnection().execute('analyze');
    const signIn = async (username: string) => {
      const user = (await orm.em.fork().findOneOrFail(User, { username })) as { username: string };
      const token = await issueToken(orm.em.fork(), user as never, systemClock.now(), false);
      return { Username: username, 'Auth-Token': token, Accept: 'application/json' };
    };
    const reads = [
      { name: 'student_project', who: 'student', path: (c: Class) => `/api/projects/${c.studentProject}` },
      { name: 'student_tasks', who: 'student', path: (c: Class) => `/api/tasks?unit_id=${c.unitId}` },
      { name: 'convenor_inbox', who: 'convenor', path: (c: Class) => `/api/units/${c.unitId}/tasks/inbox` },
    ] as const;
    const statements = new Map<string, number[]>();
    for (const read of reads) {
      for (const size of SIZES) {
        const c = classes.get(size)!;
        const headers = await signIn(read.who === 'student' ? c.student : c.convenor);
        const url = `${service}${read.path(c)}`;
        const counts: number[] = [];
        let bytes = 0;
        for (let i = 0; i < 3; i++) counts.push(await statementsOf(async () => (bytes = await get(url, headers))));
        const times: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          const started = performance.now();
          await get(url, headers);
          times.push(performance.now() - started);
        }
        const fewest = Math.min(...counts);
        statements.set(read.name, [...(statements.get(read.name) ?? []), fewest]);
        console.log(`prerequisites ${read.name} ${size} students: ${fewest} statements, p50 ${quantile(times, 0.5).toFixed(1)} ms, ${bytes} bytes`);
      }
    }
    for (const [name, [small, large]] of statements) {
      console.log(`prerequisites ${name} statements ${small} at ${SIZES[0]}, ${large} at ${SIZES[1]}${small === large ? '' : ' DIFFER'}`);
    }
  },
);
