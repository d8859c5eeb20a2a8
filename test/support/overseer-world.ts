// A unit whose one task definition is assessed automatically: an overseer image on the definition,
// assessment enabled on unit and definition, and assessment resources (build.sh, run.sh) stored.
import { Readable } from 'node:stream';
import { db } from '../../src/db/kysely.ts';
import { storageKeys } from '../../src/storage/index.ts';
import type { TestEnv } from './env.ts';
import type { People } from './fixtures.ts';
import { api } from './http.ts';
import { taskWorld, type TaskWorld } from './task-world.ts';
import { rawZip, type RawEntry } from './zips.ts';

export const PROGRAM_REQUIREMENT = { key: 'file0', name: 'program', type: 'code' as const };

export const SIMPLE_RESOURCES: RawEntry[] = [
  ['build.sh', '#!/bin/sh\necho building\n'],
  ['run.sh', '#!/bin/sh\necho "run_message: ran" > "$1"\n'],
];

export async function overseerWorld(
  env: TestEnv,
  people: People,
  image: string,
  resources: RawEntry[] = SIMPLE_RESOURCES,
): Promise<TaskWorld & { imageId: number }> {
  const world = await taskWorld(env, people, { uploadRequirements: [PROGRAM_REQUIREMENT] });
  const k = db(env.orm.em.fork());
  const { id: imageId } = await k
    .insertInto('overseer_images')
    .values({ name: `image ${image}`, tag: image })
    .returning('id')
    .executeTakeFirstOrThrow();
  await k.updateTable('task_definitions').set({ assessment_enabled: true, overseer_image_id: imageId }).where('id', '=', world.td).execute();
  await env.services.storage.put(storageKeys.taskAssessmentResources(world.td), Readable.from([rawZip(resources)]));
  return { ...world, imageId };
}

/** The student hands in `program.py` with `source`; answers the upload's response. */
export function uploadProgram(env: TestEnv, people: People, world: TaskWorld, source: string) {
  return api(env, 'POST', `/api/projects/${world.project}/task_def_id/${world.td}/submission`, {
    as: people.student.creds,
    multipart: { file0: { filename: 'main.py', contentType: 'text/x-python', data: Buffer.from(source) }, trigger: 'ready_for_feedback' },
  });
}

export async function assessments(env: TestEnv) {
  return db(env.orm.em.fork())
    .selectFrom('overseer_assessments')
    .select(['id', 'task_id', 'status', 'output_path', 'result_task_status', 'submission_timestamp'])
    .orderBy('id')
    .execute();
}

export async function assessmentComments(env: TestEnv) {
  return db(env.orm.em.fork())
    .selectFrom('task_comments')
    .select(['id', 'comment', 'kind', 'author_id', 'recipient_id', 'overseer_assessment_id'])
    .where('kind', '=', 'assessment')
    .orderBy('id')
    .execute();
}

export async function taskStatus(env: TestEnv, world: TaskWorld): Promise<string> {
  const row = await db(env.orm.em.fork())
    .selectFrom('tasks')
    .select('status')
    .where('project_id', '=', world.project)
    .where('task_definition_id', '=', world.td)
    .executeTakeFirstOrThrow();
  return row.status;
}

/** Text of a stored file of the assessment, or null. */
export async function storedText(env: TestEnv, key: string): Promise<string | null> {
  const file = await env.services.storage.open(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const c of file.stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Graphile jobs of one name still in the queue, with their attempts and last error. */
export async function queued(env: TestEnv, name: string) {
  return env.orm.em
    .fork()
    .execute<{ id: string; attempts: number; last_error: string | null }[]>(
      'select j.id, j.attempts, j.last_error from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id ' +
        'where t.identifier = ? order by j.id',
      [name],
    );
}

/** Adds assessment steps to the definition (docs/assessment-steps.md), in the order given; answers their ids. */
export async function addSteps(env: TestEnv, td: number, steps: Record<string, unknown>[]): Promise<number[]> {
  const now = new Date().toISOString();
  const rows = await db(env.orm.em.fork())
    .insertInto('overseer_steps')
    .values(steps.map((s, i) => ({ task_definition_id: td, sort_order: i, created_at: now, updated_at: now, ...s }) as never))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** The stored step results, in run order. */
export async function stepResults(env: TestEnv) {
  return db(env.orm.em.fork()).selectFrom('overseer_step_results').selectAll().orderBy('assessment_id').orderBy('position').execute();
}
