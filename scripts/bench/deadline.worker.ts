// Worker thread body of the deadline bench (deadline.bench.ts): each student uploads the same
// multipart body, at the moment the steady schedule gives them, whether or not earlier uploads
// have been answered (an open loop, as students at a deadline do not wait for each other). Every
// upload gets a connection of its own, as each student's browser would. A latency counts from the
// scheduled moment, so a client running late cannot hide a slow service. On a thread of its own,
// so that the main thread's database polling does not delay the sends.
import { request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { steadySchedule, type UploadOutcome } from './deadline-rules.ts';

export interface UploadPlan {
  baseUrl: string;
  taskDefinition: number;
  students: { username: string; token: string; project: number }[];
  /** The multipart body (one PDF as `file0`, plus `trigger`) and its content type with the boundary. */
  body: Uint8Array;
  contentType: string;
  windowMs: number;
  timeoutMs: number;
}

export interface UploadReport {
  /** Absolute times (performance.timeOrigin + now) of the first scheduled send and the last answer. */
  startedAt: number;
  lastAnswerAt: number;
  latenciesMs: number[];
  outcomes: UploadOutcome[];
  /** The latest a send left after its scheduled moment: the client's own lag. */
  maxSendLagMs: number;
  /** First answer body of each failing status, for the report. */
  samples: Record<string, string>;
}

const now = () => performance.timeOrigin + performance.now();
const plan = workerData as UploadPlan;
const body = Buffer.from(plan.body);
const samples: Record<string, string> = {};

function upload(student: UploadPlan['students'][number]): Promise<UploadOutcome> {
  const url = new URL(`${plan.baseUrl}/api/projects/${student.project}/task_def_id/${plan.taskDefinition}/submission`);
  return new Promise((done) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent: false,
        timeout: plan.timeoutMs,
        headers: {
          Username: student.username,
          'Auth-Token': student.token,
          Accept: 'application/json',
          'Content-Type': plan.contentType,
          'Content-Length': body.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (status !== 201) samples[String(status)] ??= Buffer.concat(chunks).toString().slice(0, 300);
          done(status);
        });
        res.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
      },
    );
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })));
    req.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    req.end(body);
  });
}

const offsets = steadySchedule(plan.students.length, plan.windowMs);
const startedAt = now() + 200;
const latenciesMs: number[] = new Array(plan.students.length);
const outcomes: UploadOutcome[] = new Array(plan.students.length);
let maxSendLagMs = 0;
let lastAnswerAt = startedAt;
const pending: Promise<void>[] = [];
for (const [i, student] of plan.students.entries()) {
  const due = startedAt + offsets[i]!;
  const wait = due - now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  maxSendLagMs = Math.max(maxSendLagMs, now() - due);
  pending.push(
    upload(student).then((outcome) => {
      const answered = now();
      latenciesMs[i] = answered - due;
      outcomes[i] = outcome;
      lastAnswerAt = Math.max(lastAnswerAt, answered);
    }),
  );
}
await Promise.all(pending);
parentPort!.postMessage({ startedAt, lastAnswerAt, latenciesMs, outcomes, maxSendLagMs, samples } satisfies UploadReport);
