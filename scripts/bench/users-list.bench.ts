// GET /api/users with 5,000 users (1.9 MB of JSON) through the real service against a bare
// Fastify route that runs the same query on a `pg` pool and lets Fastify serialize the rows.
// The ratio is what the service's layers (credentials, tRPC, output validation) cost on top.
import { withBench } from './setup.ts';
import { assertSameAnswer, benchSettings, compare, report } from './support.ts';
import { ROLE } from '../../src/policy/index.ts';

const USERS = 5000;
// The columns as the service's query names them (src/operations/users/read-users.ts), in the same order.
const BASELINE_SQL = `select id, student_id, email, first_name, last_name, username, nickname, pronouns,
  receive_task_notifications, receive_portfolio_notifications, receive_feedback_notifications,
  opt_in_to_research, has_run_first_time_setup, simcheck_eula_accepted_at is not null as accepted_tii_eula, system_role
  from users order by id`;
// A large answer: fewer requests in flight, longer windows, or a round counts only a handful.
const concurrency = Number(process.env.BENCH_USERS_CONCURRENCY ?? 4);
const durationMs = Math.max(benchSettings.durationMs, 700);

await withBench(
  async (orm) => {
    // The Admin the bench signs in as makes it 5,000.
    await orm.em.fork().execute(
      `insert into users (username, email, first_name, last_name, nickname, pronouns, system_role, student_id,
         opt_in_to_research, receive_feedback_notifications, has_run_first_time_setup, simcheck_eula_accepted_at, created_at, updated_at)
       select 'user' || i, 'user' || i || '@example.edu', 'First' || i, 'Last' || i,
         case when i % 3 = 0 then null else 'Nick' || i end, case when i % 7 = 0 then 'they/them' end,
         case when i % 50 = 0 then '${ROLE.tutor}' else '${ROLE.student}' end, case when i % 50 = 0 then null else 'S' || i end,
         case when i % 4 = 0 then null else i % 2 = 0 end, i % 5 <> 0, true, case when i % 9 = 0 then now() end, now(), now()
       from generate_series(1, ${USERS - 1}) as i`,
    );
  },
  async ({ pool, headers, service, bare, listenBare, load }) => {
    bare.get('/users', async () => (await pool.query(BASELINE_SQL)).rows);
    const baseline = { url: `${await listenBare()}/users`, concurrency, durationMs };
    const users = { url: `${service}/api/users`, headers, concurrency, durationMs };
    await assertSameAnswer(users, baseline);

    const { warmupMs, rounds } = benchSettings;
    console.log(
      `users (${USERS}): concurrency ${concurrency}; ` +
        `${rounds} rounds, each ${durationMs} ms of service and of baseline in ABBA windows (+${warmupMs} ms warm-up each)`,
    );
    const [result] = await compare(load, [{ name: 'users_list', service: users, baseline }]);
    console.log(report(result!));
  },
);
