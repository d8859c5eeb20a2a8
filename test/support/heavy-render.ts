// How a service process answers while it works (issue 14 §1): a probe sends one request after
// another to a URL and keeps each answer's latency; a request still unanswered when the probe
// stops counts with the time it has waited so far, so a service that answers nothing shows as one
// long latency rather than as no sample. Memory is the process's resident set from /proc. The
// world is a unit with one code task, written straight into the service's own database.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createOrm, type Orm } from '../../src/db/orm.ts';
import type { TestEnv } from './env.ts';
import { everyone, type People } from './fixtures.ts';
import type { ServerProcess } from './server-process.ts';
import { taskWorld, type TaskWorld } from './task-world.ts';

export interface Probe {
  /** Stops probing and resolves with every latency in ms (the last one possibly still waiting). */
  stop(): Promise<number[]>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Requests `url` again and again, `pauseMs` apart, until stopped; any answer but 200 throws at stop. */
export function probe(url: string, headers: Record<string, string> = {}, pauseMs = 100): Probe {
  const latencies: number[] = [];
  let stopping = false;
  let inFlightSince: number | undefined;
  let failure: Error | undefined;
  const loop = (async () => {
    while (!stopping) {
      inFlightSince = performance.now();
      try {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        if (res.status !== 200) failure ??= new Error(`${url} answered ${res.status}`);
      } catch (error) {
        failure ??= error as Error;
      }
      latencies.push(performance.now() - inFlightSince);
      inFlightSince = undefined;
      if (!stopping) await sleep(pauseMs);
    }
  })();
  return {
    async stop() {
      stopping = true;
      const waiting = inFlightSince;
      // A request the service has not answered yet counts with its wait so far; it is not awaited.
      if (waiting !== undefined) {
        const settled = await Promise.race([loop.then(() => true), sleep(50).then(() => false)]);
        if (!settled) return [...latencies, performance.now() - waiting];
      } else await loop;
      if (failure) throw failure;
      return latencies;
    },
  };
}

/** The resident set of process `pid` in MiB (VmRSS: the main thread, worker threads and all). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
  return kb / 1024;
}

/** Samples `pid`'s RSS every `everyMs` until stopped; resolves with the highest seen. */
export function rssPeak(pid: number, everyMs = 100): { stop(): number } {
  let peak = rssMiB(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssMiB(pid));
    } catch {
      // the process ended
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/** A Python program of about `bytes` bytes (two lines per function), as a huge real upload would be. */
export function bigPython(bytes: number): { text: string; lines: number } {
  const parts: string[] = [];
  let size = 0;
  let lines = 0;
  for (let i = 0; size < bytes; i++) {
    const part = `def step_${i}(values):\n    return [v * ${i} for v in values if v % 7 == ${i % 7}]  # step ${i}\n`;
    if (size + part.length > bytes) break;
    parts.push(part);
    size += part.length;
    lines += 2;
  }
  return { text: parts.join(''), lines };
}

/** The embedded database of a service running on `dataDir`, reached as its superuser. */
export function embeddedDatabaseUrl(dataDir: string): string {
  const port = readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8')
    .split('\n')[3]
    .trim();
  const password = readFileSync(join(dataDir, 'pg.password'), 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/course_service`;
}

export const maxOf = (values: number[]) => values.reduce((m, v) => Math.max(m, v), 0);

/** A unit whose task takes one code file, and everyone signed in, in the database of a running service. */
export interface CodeTaskWorld {
  orm: Orm;
  client: pg.Client;
  people: People;
  world: TaskWorld;
  /** Uploads `text` as the student's `filename` through REST; resolves with the submission's id. */
  upload(server: ServerProcess, filename: string, text: string): Promise<number>;
  /** The submission's state: still processing, its PDF's key, and the task's status. */
  state(submissionId: number): Promise<{ processing: boolean; pdfPath: string | null; status: string }>;
  close(): Promise<void>;
}

/** Seeds the world; with `earlier` (after a restart), reaches the one seeded before instead. */
export async function codeTaskWorld(databaseUrl: string, earlier?: CodeTaskWorld): Promise<CodeTaskWorld> {
  const orm = await createOrm(databaseUrl);
  const client = new pg.Client(databaseUrl);
  await client.connect();
  // Signed in on the real clock: the service process checks tokens against it.
  const there = { orm, clock: { now: () => new Date() } } as unknown as TestEnv;
  const people = earlier?.people ?? (await everyone(there));
  const world = earlier?.world ?? (await taskWorld(there, people, { uploadRequirements: [{ key: 'file0', name: 'Program', type: 'code' }] }));
  return {
    orm,
    client,
    people,
    world,
    async upload(server, filename, text) {
      const form = new FormData();
      form.append('file0', new Blob([text], { type: 'text/x-python' }), filename);
      const res = await fetch(`${server.baseUrl}/api/projects/${world.project}/task_def_id/${world.td}/submission`, {
        method: 'POST',
        headers: { Username: people.student.creds.username, 'Auth-Token': people.student.creds.token },
        body: form,
      });
      if (res.status !== 201) throw new Error(`the upload answered ${res.status}: ${await res.text()}`);
      const { rows } = await client.query<{ id: number }>('select id from task_submissions order by id desc limit 1');
      return rows[0].id;
    },
    async state(submissionId) {
      const { rows } = await client.query<{ processing: boolean; pdf_path: string | null; status: string }>(
        'select s.processing, t.pdf_path, t.status from task_submissions s join tasks t on t.id = s.task_id where s.id = $1',
        [submissionId],
      );
      return { processing: rows[0].processing, pdfPath: rows[0].pdf_path, status: rows[0].status };
    },
    async close() {
      await client.end().catch(() => {});
      await orm.close();
    },
  };
}
