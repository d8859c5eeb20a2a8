// GET /api/campuses (public) and GET /api/unit_roles (authenticated: the session check on top)
// through the real service (Fastify + REST compat layer + tRPC + Kysely + zod output) against
// a bare Fastify route that runs the campus query on a `pg` pool.
import { Campus } from '../../schema/index.ts';
import { CAMPUS_MODES } from '../../schema/enums.ts';
import { withBench } from './setup.ts';
import { assertSameAnswer, benchSettings, compare, report } from './support.ts';

const BASELINE_SQL = 'select id, name, abbreviation, active, mode from campuses order by id';

await withBench(
  async (orm) => {
    const em = orm.em.fork();
    for (let i = 1; i <= 20; i++) {
      em.create(Campus, {
        name: `Campus ${i}`,
        abbreviation: `C${i}`,
        mode: CAMPUS_MODES[i % CAMPUS_MODES.length]!,
        active: i % 5 !== 0,
      });
    }
    await em.flush();
  },
  async ({ pool, headers, service, bare, listenBare, load }) => {
    bare.get('/campuses', async () => (await pool.query(BASELINE_SQL)).rows);
    const baseline = { url: `${await listenBare()}/campuses` };
    const campuses = { url: `${service}/api/campuses`, headers };
    await assertSameAnswer(campuses, baseline);
    const unitRoles = { url: `${service}/api/unit_roles`, headers };

    const { concurrency, warmupMs, durationMs, rounds } = benchSettings;
    console.log(
      `campuses: concurrency ${concurrency}; ${rounds} rounds, each ${durationMs} ms of service and of baseline in ABBA windows (+${warmupMs} ms warm-up each)`,
    );
    const results = await compare(load, [
      { name: 'campuses_list', service: campuses, baseline },
      { name: 'unit_roles_list', service: unitRoles, baseline },
    ]);
    for (const result of results) console.log(report(result));
  },
);
