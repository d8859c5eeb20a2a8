// The SCORM player in a real browser (docs/benchmarks.md, "SCORM player"): Debian's chromium opens
// GET /api/scorm/player/{id} as a student with an open attempt, and the page's own marks give
// - load: navigation start to the page ready (sign-in, context, attempts) plus Resume to the
//   package's Initialize (the resume PATCH, the runtime scripts, the SCORM token, the package's
//   page from the asset route);
// - commit: one Commit of the package (the synchronous PATCH of the attempt's data model);
// each as a ratio against a baseline measured in the same run from the same page: a bare
// GET /api/units/{id} through fetch. The SQL statements of one load and one commit are counted at
// two sizes, a task with 1 and with 20 earlier attempts; they must be equal.
// Where no browser is installed it says so and measures nothing.
import { type Browser, chromium, type Page } from 'playwright-core';
import { existsSync } from 'node:fs';
import { Project, Task, TaskDefinition, TestAttempt, Unit, User } from '../../schema/index.ts';
import type { Orm } from '../../src/db/orm.ts';
import { issueToken } from '../../src/operations/auth/session-tokens.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { ROLE } from '../../src/policy/index.ts';
import { buildScormPackage, RESUMABLE } from '../lib/scorm-package.ts';
import { withBench } from './setup.ts';
import { median, quantile, statementsOf } from './support.ts';

const ROUNDS = Number(process.env.BENCH_SCORM_ROUNDS ?? 15);
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SIZES = [1, 20];

interface World {
  unitId: number;
  student: { username: string; token: string; id: number };
  definitions: Map<number, number>;
}

/** A unit, a student and one test definition per size, whose task has `size` attempts, the newest open. */
async function seed(orm: Orm): Promise<World> {
  const em = orm.em.fork();
  const unit = em.create(Unit, { code: 'SCORM1', name: 'Online tests', description: '', startDate: '2026-03-02', endDate: '2026-12-01', active: true });
  const student = em.create(User, {
    username: 'benchstudent',
    email: 'benchstudent@example.edu',
    firstName: 'Bench',
    lastName: 'Student',
    systemRole: ROLE.student,
    passwordHash: null,
    hasRunFirstTimeSetup: true,
  });
  const project = em.create(Project, { user: student, unit, enrolled: true, targetGrade: 0 } as never);
  const definitions = new Map<number, number>();
  for (const size of SIZES) {
    const td = em.create(TaskDefinition, {
      unit,
      name: `Test with ${size} attempts`,
      abbreviation: `T${size}`,
      description: '',
      startDate: '2026-03-02',
      targetDate: '2026-03-16',
      dueDate: null,
      targetGrade: 0,
      scormEnabled: true,
      scormAttemptLimit: 0,
    } as never);
    const task = em.create(Task, { project, taskDefinition: td, status: 'not_started' } as never);
    for (let i = 0; i < size; i++) {
      const open = i === size - 1;
      em.create(TestAttempt, {
        task,
        attemptedTime: new Date(Date.UTC(2026, 2, 3, 0, i)),
        terminated: !open,
        terminatedAt: open ? null : new Date(Date.UTC(2026, 2, 3, 0, i, 30)),
        completionStatus: !open,
        successStatus: false,
        scoreScaled: open ? null : 0,
        cmiDatamodel: {
          'cmi.completion_status': open ? 'incomplete' : 'completed',
          'cmi.entry': open ? 'resume' : 'ab-initio',
          'cmi.mode': 'normal',
          'cmi.learner_id': 'benchstudent',
          'cmi.learner_name': 'Bench Student',
          'cmi.interactions._count': '0',
          'cmi.objectives._count': '0',
          'cmi.suspend_data': open ? 'part=1' : '',
        },
      } as never);
    }
    await em.flush();
    definitions.set(size, td.id);
  }
  await em.flush();
  const token = await issueToken(orm.em.fork(), student, systemClock.now(), false);
  return { unitId: unit.id, student: { username: student.username, token, id: student.id }, definitions };
}

/** Milliseconds between two of the player's marks (the last of each). */
const between = (page: Page, from: string, to: string) =>
  // No named function inside: tsx would wrap it in a helper the page does not have.
  page.evaluate(
    ([a, b]) =>
      (b === 'navigation' ? 0 : (performance.getEntriesByName(`scorm-player:${b}`).at(-1)?.startTime ?? Number.NaN)) -
      (a === 'navigation' ? 0 : (performance.getEntriesByName(`scorm-player:${a}`).at(-1)?.startTime ?? Number.NaN)),
    [from, to],
  );

async function frameOf(page: Page) {
  const handle = await page.waitForSelector('#sco');
  for (;;) {
    const frame = await handle.contentFrame();
    if (frame && /\/api\/scorm\/\d+\//.test(frame.url())) return frame;
    await page.waitForTimeout(20);
  }
}

const state = (page: Page, value: string) => page.waitForFunction((v) => document.body.getAttribute('data-state') === v, value, { timeout: 30_000 });

if (!existsSync(CHROMIUM)) {
  console.log(`scorm_player SKIPPED: no browser at ${CHROMIUM} (run scripts/chromium.sh as root, or set CHROMIUM_PATH)`);
} else {
  await withBench(
    async () => {},
    async ({ orm, service, headers }) => {
      const world = await seed(orm);
      const zip = await buildScormPackage(RESUMABLE);
      for (const td of world.definitions.values()) {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), 'test.zip');
        const res = await fetch(`${service}/api/units/${world.unitId}/task_definitions/${td}/scorm_data`, { method: 'POST', headers, body: form });
        if (!res.ok) throw new Error(`upload: ${res.status} ${await res.text()}`);
      }
      const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
      try {
        const context = await browser.newContext();
        const user = JSON.stringify({ username: world.student.username, authenticationToken: world.student.token });
        await context.addInitScript(
          ([origin, value]) => {
            if (location.origin === origin && location.pathname.startsWith('/api/scorm/player/')) localStorage.setItem('doubtfire_user', value);
          },
          [service, user] as const,
        );
        const page = await context.newPage();
        const baseline: number[] = [];
        /** Each load's two parts: navigation to ready, Resume to Initialize. */
        const parts: [number, number][] = [];
        const results = new Map<number, { load: number[]; commit: number[]; loadStatements: number; commitStatements: number }>();
        const open = async (td: number) => {
          await page.goto(`${service}/api/scorm/player/${td}`);
          await state(page, 'ready');
          await page.click('#resume');
          await state(page, 'initialized');
          const ready = await between(page, 'navigation', 'ready');
          const initialized = await between(page, 'play', 'initialized');
          parts.push([ready, initialized]);
          return ready + initialized;
        };
        const commit = async () => {
          const frame = await frameOf(page);
          await frame.waitForSelector('#leave:not([disabled])');
          await page.evaluate(() => document.body.setAttribute('data-state', 'initialized'));
          await frame.click('#leave');
          await state(page, 'committed');
          return between(page, 'commit', 'committed');
        };
        const bareGet = () =>
          page.evaluate(
            async ([unit, u, t]) => {
              const started = performance.now();
              const r = await fetch(`/api/units/${unit}`, { headers: { Username: u!, 'Auth-Token': t! }, cache: 'no-store' });
              await r.text();
              return performance.now() - started;
            },
            [String(world.unitId), world.student.username, world.student.token],
          );
        // A first round of each, unmeasured: JIT, caches and the browser's script cache.
        for (const td of world.definitions.values()) {
          await open(td);
          await commit();
        }
        for (const size of SIZES) {
          const td = world.definitions.get(size)!;
          const r = { load: [] as number[], commit: [] as number[], loadStatements: 0, commitStatements: 0 };
          // The fewest of three: a session's occasional refresh (its last-seen time) is not the player's.
          const loads: number[] = [];
          const commits: number[] = [];
          for (let i = 0; i < 3; i++) {
            loads.push(await statementsOf(() => open(td)));
            commits.push(await statementsOf(() => commit()));
          }
          if (process.env.BENCH_SCORM_VERBOSE) console.log(`statements at ${size}: loads ${loads.join(', ')}; commits ${commits.join(', ')}`);
          r.loadStatements = Math.min(...loads);
          r.commitStatements = Math.min(...commits);
          results.set(size, r);
        }
        for (let round = 0; round < ROUNDS; round++) {
          for (const size of SIZES) {
            const r = results.get(size)!;
            baseline.push(await bareGet());
            r.load.push(await open(world.definitions.get(size)!));
            r.commit.push(await commit());
          }
        }
        const base = median(baseline);
        console.log(
          `scorm_player load parts p50: page ready ${median(parts.map((p) => p[0])).toFixed(0)} ms, resume to Initialize ${median(parts.map((p) => p[1])).toFixed(0)} ms`,
        );
        for (const size of SIZES) {
          const r = results.get(size)!;
          console.log(
            `scorm_player ${size} earlier attempts: load p50 ${median(r.load).toFixed(0)} ms (p25 ${quantile(r.load, 0.25).toFixed(0)}, p75 ${quantile(r.load, 0.75).toFixed(0)}), ` +
              `${r.loadStatements} statements; commit p50 ${median(r.commit).toFixed(1)} ms (p25 ${quantile(r.commit, 0.25).toFixed(1)}, p75 ${quantile(r.commit, 0.75).toFixed(1)}), ${r.commitStatements} statements`,
          );
        }
        const big = results.get(SIZES[1]!)!;
        console.log(`scorm_player baseline (GET /api/units/{id} from the page) p50 ${base.toFixed(1)} ms`);
        console.log(`scorm_player load ratio ${(median(big.load) / base).toFixed(1)} (load to Initialize / bare GET of the unit, n=${ROUNDS})`);
        console.log(`scorm_player commit ratio ${(median(big.commit) / base).toFixed(2)} (commit p50 / bare GET of the unit, n=${ROUNDS})`);
        const small = results.get(SIZES[0]!)!;
        if (small.loadStatements !== big.loadStatements || small.commitStatements !== big.commitStatements) {
          console.log(
            `scorm_player STATEMENTS DIFFER: load ${small.loadStatements} vs ${big.loadStatements}, commit ${small.commitStatements} vs ${big.commitStatements}`,
          );
        }
      } finally {
        await browser.close();
      }
    },
  );
}
