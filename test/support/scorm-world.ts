// A unit with an online test (docs/online-tests.md), for the REST tests of test attempts and
// requests for more attempts: the task world of task-world.ts with the definition's SCORM
// settings written straight to the database (the task-definition routes set them too), and the
// attempt routes as a client calls them.
import { db } from '../../src/db/kysely.ts';
import type { TestEnv } from './env.ts';
import type { Actor, People } from './fixtures.ts';
import type { Credentials } from './http.ts';
import { taskWorld, type TaskWorld, type UnitFlags } from './task-world.ts';

export interface ScormSettings {
  scorm_enabled?: boolean;
  scorm_allow_review?: boolean;
  scorm_bypass_test?: boolean;
  scorm_time_delay_enabled?: boolean;
  scorm_attempt_limit?: number;
  scorm_trust?: 'package' | 'staff';
  scorm_pass_status?: string | null;
}

export async function setScorm(env: TestEnv, td: number, settings: ScormSettings): Promise<void> {
  await db(env.orm.em.fork())
    .updateTable('task_definitions')
    .set(settings as never)
    .where('id', '=', td)
    .execute();
}

/** The task world with its definition's test enabled (bypass on unless a test says otherwise) and these settings. */
export async function scormWorld(env: TestEnv, people: People, settings: ScormSettings = {}, flags: UnitFlags = {}): Promise<TaskWorld> {
  const w = await taskWorld(env, people, {}, flags);
  await setScorm(env, w.td, { scorm_enabled: true, scorm_bypass_test: true, ...settings });
  return w;
}

export const credsOf = (people: People, who: keyof People | Actor): Credentials => (typeof who === 'string' ? people[who].creds : who.creds);

export const attemptsUrl = (w: Pick<TaskWorld, 'project' | 'td'>) => `/api/projects/${w.project}/task_def_id/${w.td}/test_attempts`;
