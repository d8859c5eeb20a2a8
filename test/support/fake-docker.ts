import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake engine received. */
export interface EngineRequest {
  method: string;
  /** The path without any /v1.xx version prefix. */
  path: string;
  query: Record<string, string>;
}

/** How the next pulls end. */
export type PullBehaviour =
  | { kind: 'succeed' }
  /** HTTP 200, then an error line inside the progress stream (how the engine reports most failures). */
  | { kind: 'stream-error'; message: string }
  /** An HTTP error status with a JSON message before any stream (e.g. 404 "pull access denied"). */
  | { kind: 'http-error'; status: number; message: string }
  /** Accepts the request and never answers. */
  | { kind: 'silent' }
  /** Answers 200 and the first progress line, then nothing more. */
  | { kind: 'stall' }
  /** Succeeds, after `ms` of silence (a long pull in progress). */
  | { kind: 'slow'; ms: number };

export interface FakeDockerEngine {
  /** `tcp://127.0.0.1:<port>`, a DOCKER_HOST value. */
  host: string;
  requests: EngineRequest[];
  /** The pulls received, as `fromImage` and `tag` query values. */
  pulls(): { fromImage: string; tag: string }[];
  behave(next: PullBehaviour): void;
  close(): Promise<void>;
}

const VERSION_PREFIX = /^\/v\d+(?:\.\d+)?(?=\/)/;

function progress(fromImage: string, tag: string): object[] {
  const layer = '4f4fb700ef54';
  return [
    { status: `Pulling from ${fromImage}`, id: tag },
    { status: 'Pulling fs layer', progressDetail: {}, id: layer },
    { status: 'Downloading', progressDetail: { current: 32, total: 32 }, progress: '[====>] 32B/32B', id: layer },
    { status: 'Pull complete', progressDetail: {}, id: layer },
    { status: 'Digest: sha256:5b0bcabd1ed22e9fb1310cf6c2dec7cdef19f0ad69efa1f392e94a4333501270' },
    { status: `Status: Downloaded newer image for ${fromImage}:${tag}` },
  ];
}

function answerPull(req: IncomingMessage, res: import('node:http').ServerResponse, behaviour: PullBehaviour, query: Record<string, string>) {
  const fromImage = query.fromImage ?? '';
  const tag = query.tag ?? 'latest';
  if (behaviour.kind === 'http-error') {
    res.writeHead(behaviour.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: behaviour.message }));
    return;
  }
  if (behaviour.kind === 'silent') return;
  res.writeHead(200, { 'content-type': 'application/json' });
  const lines = progress(fromImage, tag);
  if (behaviour.kind === 'stall') {
    res.write(`${JSON.stringify(lines[0])}\r\n`);
    return;
  }
  const sent =
    behaviour.kind === 'stream-error'
      ? [...lines.slice(0, 2), { error: behaviour.message, errorDetail: { message: behaviour.message } }]
      : lines; // 'slow' is answered as a success once its delay has passed
  // Written line by line, as the engine streams its progress.
  for (const line of sent) res.write(`${JSON.stringify(line)}\r\n`);
  res.end();
}

/** A loopback stand-in for the Docker Engine API, answering the image pull endpoint only. */
export async function startFakeDocker(): Promise<FakeDockerEngine> {
  const requests: EngineRequest[] = [];
  let behaviour: PullBehaviour = { kind: 'succeed' };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://engine');
    const path = url.pathname.replace(VERSION_PREFIX, '');
    const query = Object.fromEntries(url.searchParams);
    requests.push({ method: req.method ?? 'GET', path, query });
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && path === '/images/create') {
        const now = behaviour;
        if (now.kind === 'slow') setTimeout(() => answerPull(req, res, { kind: 'succeed' }, query), now.ms);
        else answerPull(req, res, now, query);
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `page not found: ${req.method} ${path}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `tcp://127.0.0.1:${port}`,
    requests,
    pulls: () =>
      requests.filter((r) => r.method === 'POST' && r.path === '/images/create').map((r) => ({ fromImage: r.query.fromImage, tag: r.query.tag })),
    behave: (next) => {
      behaviour = next;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
