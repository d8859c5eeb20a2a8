// POST /api/csv/users with 5,000 new users in one request, through the real service over HTTP.
// Prints the time of each round (a fresh set of usernames each time) and the median.
import { withBench } from './setup.ts';
import { median } from './support.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 5000);
const ROUNDS = Number(process.env.BENCH_IMPORT_ROUNDS ?? 3);

const csvFor = (round: number) =>
  'email,first_name,last_name,username,nickname,role,student_id\n' +
  Array.from({ length: ROWS }, (_, i) => `r${round}u${i}@uni.edu,First,Last,r${round}u${i},,Student,r${round}s${i}\n`).join('');

await withBench(
  async () => {},
  async ({ headers, service }) => {
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const form = new FormData();
      form.append('file', new Blob([csvFor(round)], { type: 'text/csv' }), 'users.csv');
      const started = performance.now();
      const res = await fetch(`${service}/api/csv/users`, { method: 'POST', headers, body: form });
      const ms = performance.now() - started;
      const body = (await res.json()) as { success?: unknown[] };
      if (res.status !== 201 || body.success?.length !== ROWS) throw new Error(`import failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      times.push(ms);
    }
    console.log(`users_import ${ROWS} rows: median ${median(times).toFixed(0)} ms (rounds ${times.map((t) => t.toFixed(0)).join(', ')} ms)`);
  },
);
