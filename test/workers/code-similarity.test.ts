import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { db } from '../../src/db/kysely.ts';
import type { TestEnv } from '../support/env.ts';
import { travelTo, type People } from '../support/fixtures.ts';
import { codeWorld, compareDefinition, DISGUISED, handIn, INDEPENDENT, mossRows, ORIGINAL } from '../support/code-world.ts';
import { seedGroupRow, seedGroupSet, seedMember } from '../support/seed-group-members.ts';
import { Readable } from 'node:stream';
import { storageKeys } from '../../src/storage/index.ts';
import { createUser } from '../support/fixtures.ts';
import { enrol } from '../support/seed.ts';
import { seedTask } from '../support/seed-enrolments.ts';
import { freshEachTest } from '../support/suite.ts';

const test = suite('worker: code_similarity');
let env: TestEnv;
let people: People;
freshEachTest(test, (world) => ({ env, people } = world));

const HALF_TAIL = `
class Table:
    def __init__(self):
        self.rows = []

    def add(self, label, value):
        self.rows.append((label, value))

    def render(self, width):
        best = sorted(self.rows, key=lambda row: row[1], reverse=True)
        return "\\n".join(label.ljust(width) + str(value) for label, value in best)


if __name__ == "__main__":
    table = Table()
    for label, value in count_words(read_words(sys.argv[1])).items():
        table.add(label, value)
    print(table.render(24))
`;

const withoutIds = (rows: Awaited<ReturnType<typeof mossRows>>) => rows.map(({ id: _id, ...rest }) => rest);

test('two near-copies with renamed identifiers are a flagged pair, one row on each side; the independent program gets none', async () => {
  const w = await codeWorld(env, people);
  await compareDefinition(env, w.td);
  const rows = await mossRows(env);
  const [a, b, c] = w.tasks;
  assert.equal(
    rows.map((r) => [r.task_id, r.other_task_id, r.flagged]),
    [
      [a, b, true],
      [b, a, true],
    ],
  );
  for (const r of rows) assert.ok(r.pct >= 80, `near-copies share ${r.pct}%`);
  assert.not.ok(rows.some((r) => r.task_id === c || r.other_task_id === c));
});

test('running again gives the same rows, replacing the old ones', async () => {
  const w = await codeWorld(env, people);
  await compareDefinition(env, w.td);
  const first = await mossRows(env);
  await compareDefinition(env, w.td);
  const second = await mossRows(env);
  assert.equal(withoutIds(second), withoutIds(first));
  assert.is(second.length, 2);
  assert.ok(
    second.every((r) => !first.some((f) => f.id === r.id)),
    'the rows were replaced',
  );
});

test("the definition's plagiarism_warn_pct decides: below it nothing is recorded, at it the pair is flagged", async () => {
  // The second student copied half of the original and wrote the rest.
  const half = ORIGINAL.split('def top')[0] + HALF_TAIL;
  const w = await codeWorld(env, people, 90, [ORIGINAL, half, INDEPENDENT]);
  await compareDefinition(env, w.td);
  assert.equal(await mossRows(env), [], 'nothing at 90%');
  await db(env.orm.em.fork()).updateTable('task_definitions').set({ plagiarism_warn_pct: 30 }).where('id', '=', w.td).execute();
  await compareDefinition(env, w.td);
  const rows = await mossRows(env);
  assert.equal(
    rows.map((r) => [r.task_id, r.other_task_id]),
    [
      [w.tasks[0], w.tasks[1]],
      [w.tasks[1], w.tasks[0]],
    ],
  );
  const [orig, copy] = rows;
  assert.ok(copy.pct >= 30 && copy.pct < 90, `the half copy shares ${copy.pct}%`);
  assert.is(copy.flagged, true);
  assert.is(orig.flagged, orig.pct >= 30);
  // Threshold exactly at the copy's share: still flagged (>=).
  await db(env.orm.em.fork()).updateTable('task_definitions').set({ plagiarism_warn_pct: copy.pct }).where('id', '=', w.td).execute();
  await compareDefinition(env, w.td);
  assert.ok((await mossRows(env)).find((r) => r.task_id === w.tasks[1])!.flagged);
});

test('a dismissed flag stays dismissed on a rerun over the same submissions, and a new submission is compared afresh', async () => {
  const w = await codeWorld(env, people);
  await compareDefinition(env, w.td);
  const [a] = w.tasks;
  await db(env.orm.em.fork()).updateTable('task_similarities').set({ flagged: false }).where('task_id', '=', a).execute();
  await compareDefinition(env, w.td);
  assert.equal(
    (await mossRows(env)).map((r) => r.flagged),
    [false, true],
  );
  // The student hands in again (an hour later, so a new history entry): the upload removes the task's similarities.
  await travelTo(env, people, new Date(env.clock.now().getTime() + 2 * 3600_000));
  await handIn(env, w, w.students[0], `${ORIGINAL}\n# final version\n`);
  assert.equal(
    (await mossRows(env)).map((r) => r.task_id),
    [w.tasks[1]],
  );
  await compareDefinition(env, w.td);
  assert.equal(
    (await mossRows(env)).map((r) => [r.task_id, r.flagged]),
    [
      [a, true],
      [w.tasks[1], true],
    ],
  );
});

test('a group hands in once: its members are not compared with each other, and a copy of their work is flagged on every member', async () => {
  const w = await codeWorld(env, people, 50, []);
  const set = await seedGroupSet(env, w.unit);
  const group = await seedGroupRow(env, set, w.tutorial, 'Team');
  await seedMember(env, group, w.students[0].project);
  await seedMember(env, group, w.students[1].project);
  await seedMember(env, await seedGroupRow(env, set, w.tutorial, 'Solo'), w.students[2].project);
  await db(env.orm.em.fork()).updateTable('task_definitions').set({ group_set_id: set }).where('id', '=', w.td).execute();
  const mine = await handIn(env, w, w.students[0], ORIGINAL);
  const copier = await handIn(env, w, w.students[2], DISGUISED);
  const mate = (await db(env.orm.em.fork()).selectFrom('tasks').select('id').where('project_id', '=', w.students[1].project).executeTakeFirstOrThrow()).id;
  await compareDefinition(env, w.td);
  const rows = await mossRows(env);
  assert.equal(
    rows.map((r) => [r.task_id, r.other_task_id, r.flagged]),
    (
      [
        [mine, copier, true],
        [mate, copier, true],
        [copier, mine, true],
      ] as [number, number, boolean][]
    ).sort((x, y) => x[0] - y[0]),
  );
});

test('a large class with two copied programs: every similar pair is recorded, beyond what one statement can insert', async () => {
  // 2 x 70 copies: 9,660 rows of 7 values, more than PostgreSQL's 65,535 parameters in one statement.
  // Seeded straight into the tables (as an upload leaves them) to keep the test fast.
  const w = await codeWorld(env, people, 50, []);
  const k = db(env.orm.em.fork());
  for (let i = 0; i < 140; i++) {
    const user = await createUser(env, `copier${i}`, 'Student');
    const project = await enrol(env, user, w.unit);
    const task = await seedTask(env, project, w.td, { status: 'ready_for_feedback' });
    const { id } = await k
      .insertInto('task_submissions')
      .values({ task_id: task, submitted_at: env.clock.now().toISOString(), processing: false } as never)
      .returning('id')
      .executeTakeFirstOrThrow();
    const key = storageKeys.submissionFile(id, 0, 'code', 'py');
    await env.services.storage.put(key, Readable.from([Buffer.from(i % 2 ? ORIGINAL : INDEPENDENT)]));
    await k
      .insertInto('submission_files')
      .values({
        submission_id: id,
        idx: 0,
        key: 'file0',
        name: 'Program',
        kind: 'code',
        original_filename: 'words.py',
        content_type: 'text/x-python',
        size_bytes: 1,
        storage_path: key,
      } as never)
      .execute();
  }
  await compareDefinition(env, w.td);
  const rows = await mossRows(env);
  assert.is(rows.length, 2 * 70 * 69);
  assert.ok(rows.every((r) => r.flagged && r.pct === 100));
});

test('a definition without code requirements or submissions records nothing and does not fail', async () => {
  const w = await codeWorld(env, people);
  await db(env.orm.em.fork())
    .updateTable('task_definitions')
    .set({ upload_requirements: JSON.stringify([{ key: 'file0', name: 'Report', type: 'document' }]) as never })
    .where('id', '=', w.td)
    .execute();
  await compareDefinition(env, w.td);
  await compareDefinition(env, 999_999);
  assert.equal(await mossRows(env), []);
});

test.run();
