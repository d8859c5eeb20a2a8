// Worker thread body of the load generator (see `LoadGenerator` in support.ts). For each
// request it receives, it keeps `concurrency` keep-alive requests in flight against one URL,
// discards a warm-up, then counts completed responses for `durationMs`. It lives for the whole
// benchmark, so rounds do not pay a thread start, and runs apart from the main event loop,
// which the servers under test keep to themselves.
import { Agent, request } from 'node:http';
import { parentPort } from 'node:worker_threads';
import type { LoadOptions, LoadResult } from './support.ts';

// One agent per target and concurrency: its connections stay open from round to round.
const agents = new Map<string, Agent>();

function agentFor(options: LoadOptions): Agent {
  const key = `${new URL(options.url).origin} ${options.concurrency}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({ keepAlive: true, maxSockets: options.concurrency, maxFreeSockets: options.concurrency });
    agents.set(key, agent);
  }
  return agent;
}

function once(options: LoadOptions, agent: Agent, target: URL): Promise<number> {
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

async function measure(options: LoadOptions): Promise<LoadResult> {
  const agent = agentFor(options);
  const target = new URL(options.url);
  const measureFrom = performance.now() + options.warmupMs;
  const measureUntil = measureFrom + options.durationMs;
  let completed = 0;
  let failed = 0;
  let firstFailure: string | undefined;

  async function slot(): Promise<void> {
    while (performance.now() < measureUntil) {
      let status: number;
      try {
        status = await once(options, agent, target);
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
  return { rps: completed / (options.durationMs / 1000), completed, failed, firstFailure };
}

parentPort!.on('message', async (message: LoadOptions | 'close') => {
  if (message === 'close') {
    for (const agent of agents.values()) agent.destroy();
    parentPort!.close();
    return;
  }
  parentPort!.postMessage(await measure(message));
});
