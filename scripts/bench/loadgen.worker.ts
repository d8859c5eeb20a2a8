// Worker thread body of the load generator (see `measureRps` in support.ts): it keeps
// `concurrency` keep-alive requests in flight, discards a warm-up, then counts completed
// responses for `durationMs`. It runs on its own thread so the server under test has the main
// event loop to itself.
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import type { LoadOptions, LoadResult } from './support.ts';

const options = workerData as LoadOptions;
const target = new URL(options.url);
const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency, maxFreeSockets: options.concurrency });

function once(): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => done(res.statusCode ?? 0));
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end();
  });
}

const start = performance.now();
const measureFrom = start + options.warmupMs;
const measureUntil = measureFrom + options.durationMs;
let completed = 0;
let failed = 0;
let firstFailure: string | undefined;

async function slot(): Promise<void> {
  while (performance.now() < measureUntil) {
    let status: number;
    try {
      status = await once();
    } catch (error) {
      status = 0;
      firstFailure ??= (error as Error).message;
    }
    const now = performance.now();
    if (status !== 200) {
      failed++;
      firstFailure ??= `HTTP ${status}`;
    }
    if (now >= measureFrom && now < measureUntil) completed++;
  }
}

await Promise.all(Array.from({ length: options.concurrency }, slot));
agent.destroy();
const result: LoadResult = { rps: completed / (options.durationMs / 1000), completed, failed, firstFailure };
parentPort!.postMessage(result);
