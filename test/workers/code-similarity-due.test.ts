import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCrontab } from 'graphile-worker';
import { db } from '../../src/db/kysely.ts';
import { jobQueue } from '../../src/db/jobs.ts';
import { CRONTAB } from '../../workers/index.ts';
import type { TestEnv } from '../support/env.ts';
import { travelTo, type People } from '../support/fixtures.ts';
import { codeWorld, handIn, INDEPENDENT, mossRows } from '../support/code-world.ts';
import { runJobs } from '../support/jobs.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('worker: code_similarity_due (cron)');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

/** The cron item as graphile-worker runs it at `ts`, and whatever it queues. */
async function cronAt(ts: string): Promise<void> {
  await jobQueue(env.orm.em.fork()).add('code_similarity_due', { _cron: { ts } });
  await runJobs(env);
}
const forget = () => db(env.orm.em.fork()).deleteFrom('task_similarities').execute();

test('code handed in is compared at the first run after the target day has ended anywhere on earth, and again only after new work', async () => {
  // Target date 2026-03-16: over at 2026-03-17 11:59:59 UTC.
  const w = await codeWorld(env, people);
  await cronAt('2026-03-17T05:00:00Z');
  assert.equal(await mossRows(env), [], 'not before the target day is over');
  await cronAt('2026-03-18T05:00:00Z');
  assert.is((await mossRows(env)).length, 2, 'compared once it is over');

  await forget();
  await cronAt('2026-03-19T05:00:00Z');
  assert.equal(await mossRows(env), [], 'nothing new since the previous run: not compared again');

  await travelTo(env, people, '2026-03-20T10:00:00Z');
  // The first student now hands in a copy of the third student's program.
  await handIn(env, w, w.students[0], INDEPENDENT);
  await cronAt('2026-03-21T05:00:00Z');
  const [a, , c] = w.tasks;
  assert.equal(
    (await mossRows(env)).map((r) => [r.task_id, r.other_task_id, r.flagged]),
    [
      [a, c, true],
      [c, a, true],
    ],
    'late work is compared at the next run',
  );
});

test('the worker runs it daily at 05:00, making up missed days', () => {
  const item = parseCrontab(CRONTAB).find((i) => i.task === 'code_similarity_due');
  assert.ok(item);
  const at = (hour: number, min: number, dow: number) => ({ min, hour, date: 2, month: 3, dow });
  assert.ok(item!.match(at(5, 0, 1)));
  assert.ok(item!.match(at(5, 0, 6)));
  assert.not.ok(item!.match(at(6, 0, 1)));
  assert.is(item!.options.backfillPeriod, 3 * 24 * 3600_000);
});

test.run();
