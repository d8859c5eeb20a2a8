// The SCORM player's browser tests' world: a unit with a convenor, a tutor and a student, a task
// definition with online tests on and a package uploaded through the REST routes, and player pages
// opened in a real browser as one of them (the web client's stored session on the same origin).
import * as assert from 'uvu/assert';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { buildScormPackage, type PackageSpec } from '../../scripts/lib/scorm-package.ts';
import type { TestEnv } from './env.ts';
import type { Actor, People } from './fixtures.ts';
import { api } from './http.ts';
import { employ, enrol, seedUnit } from './seed.ts';
import { seedTaskDefinition } from './seed-enrolments.ts';

export interface PlayerWorld {
  unit: number;
  project: number;
  td: number;
}

/** A unit whose task T1 has the package and these settings (scorm_* fields of the task definition). */
export async function playerWorld(env: TestEnv, people: People, spec: PackageSpec, settings: Record<string, unknown>): Promise<PlayerWorld> {
  const unit = await seedUnit(env, { code: 'SIT303' });
  await employ(env, people.convenor.user, unit, 'Convenor', { main: true });
  await employ(env, people.tutor.user, unit, 'Tutor');
  const project = await enrol(env, people.student.user, unit);
  const td = await seedTaskDefinition(env, unit, 'T1', { name: 'Weekly quiz' });
  const put = await api(env, 'PUT', `/api/units/${unit}/task_definitions/${td}`, {
    as: people.convenor.creds,
    json: { task_def: { scorm_enabled: true, ...settings } },
  });
  assert.is(put.status, 200, put.text);
  const upload = await api(env, 'POST', `/api/units/${unit}/task_definitions/${td}/scorm_data`, {
    as: people.convenor.creds,
    multipart: { file: { filename: 'test.zip', contentType: 'application/zip', data: await buildScormPackage(spec) } },
  });
  assert.ok(upload.status < 300, upload.text);
  return { unit, project, td };
}

/** A browser context signed in as the web client leaves it: `doubtfire_user` in this origin's localStorage. */
export async function signedInContext(browser: Browser, base: string, actor: Actor): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  const user = JSON.stringify({ id: actor.user.id, username: actor.creds.username, authenticationToken: actor.creds.token });
  // Only on the player's page: the package's sandboxed frame has no storage of its own to write.
  await context.addInitScript(
    ([origin, value]) => {
      if (location.origin === origin && location.pathname.startsWith('/api/scorm/player/')) localStorage.setItem('doubtfire_user', value);
    },
    [base, user] as const,
  );
  return context;
}

/** Waits until the page's `data-state` is one of `states` (the player's script sets it). */
export async function waitForState(page: Page, ...states: string[]): Promise<string> {
  await page.waitForFunction((s) => s.includes(document.body.getAttribute('data-state') ?? ''), states, { timeout: 30_000 });
  return (await page.getAttribute('body', 'data-state')) ?? '';
}

/** The package's frame (the sandboxed iframe of the player). */
export async function packageFrame(page: Page): Promise<Frame> {
  const handle = await page.waitForSelector('#sco');
  for (let i = 0; i < 200; i++) {
    const frame = await handle.contentFrame();
    if (frame?.url().includes('/api/scorm/') && !frame.url().includes('/player/')) return frame;
    await page.waitForTimeout(50);
  }
  throw new Error('the package frame never loaded');
}

/** The attempts of the task, newest first, as the REST route answers them. */
export async function attemptsOf(env: TestEnv, actor: Actor, world: PlayerWorld) {
  const res = await api(env, 'GET', `/api/projects/${world.project}/task_def_id/${world.td}/test_attempts`, { as: actor.creds });
  assert.is(res.status, 200, res.text);
  return res.body as {
    id: number;
    terminated: boolean;
    success_status: boolean;
    score_scaled: number | null;
    completion_status: boolean;
    cmi_datamodel: string;
  }[];
}

/** An element's text, '' when it has none. */
export const textOf = async (where: Page | Frame, selector: string): Promise<string> => (await where.textContent(selector)) ?? '';

export async function screenshot(page: Page, name: string): Promise<string> {
  const path = `/tmp/scorm-player-${name}.png`;
  await page.screenshot({ path, fullPage: false });
  return path;
}
