import { createServer, type Server } from 'node:http';
import { appendFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

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

/** What a container does once started. The fake writes the step's output files as its script would. */
export type ContainerBehaviour =
  | { kind: 'exit'; code: number; text?: string; yaml?: string; logs?: string; stdout?: string; changes?: { Path: string; Kind: number }[] }
  /** Runs until killed (an infinite loop); the kill ends it with 137. */
  | { kind: 'hang'; text?: string; stdout?: string }
  /** The kernel kills it at the memory limit: exit 137, OOMKilled. */
  | { kind: 'oom' };

/** A container the fake engine holds. */
export interface FakeContainer {
  id: string;
  name: string;
  /** The create request's body, as sent (Image, Cmd, User, HostConfig, ...). */
  config: { Image: string; Cmd: string[]; User?: string; HostConfig: Record<string, unknown>; [key: string]: unknown };
  running: boolean;
  exitCode: number;
  oomKilled: boolean;
  killed: boolean;
  logs: string;
  changes: { Path: string; Kind: number }[];
  waiters: ((code: number) => void)[];
}

export interface FakeDockerEngine {
  /** `tcp://127.0.0.1:<port>`, a DOCKER_HOST value. */
  host: string;
  requests: EngineRequest[];
  /** The pulls received, as `fromImage` and `tag` query values. */
  pulls(): { fromImage: string; tag: string }[];
  behave(next: PullBehaviour): void;
  /** Decides what each started container does, from its name and command. Default: exit 0. */
  containersDo(decide: (container: FakeContainer) => ContainerBehaviour): void;
  /** Containers that exist now (not yet removed). */
  containers(): FakeContainer[];
  /** Every container ever created, in order, removed or not. */
  created: FakeContainer[];
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

function answerPull(res: import('node:http').ServerResponse, behaviour: PullBehaviour, query: Record<string, string>) {
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
  // 'slow' is answered as a success once its delay has passed.
  const sent = behaviour.kind === 'stream-error' ? [...lines.slice(0, 2), { error: behaviour.message, errorDetail: { message: behaviour.message } }] : lines;
  // Written line by line, as the engine streams its progress.
  for (const line of sent) res.write(`${JSON.stringify(line)}\r\n`);
  res.end();
}

const WORK_DIR = '/home/overseer/work-dir';

/**
 * The host folder bound at the container's output/, and the step's output name from its command:
 * `output/<name>.txt` for build and run, `output/<name>.stdout` for an assessment step's stdout.
 */
function outputFiles(container: FakeContainer): { txt: string; yaml: string; stdout: string | null } | null {
  const binds = (container.config.HostConfig.Binds ?? []) as string[];
  const bind = binds.find((b) => b.endsWith(`:${WORK_DIR}/output`));
  const cmd = container.config.Cmd.join(' ');
  const step = /output\/([0-9a-f]+)\.stdout/.exec(cmd)?.[1];
  const name = /output\/([0-9a-f]+)\.txt/.exec(cmd)?.[1] ?? step;
  if (!bind || !name) return null;
  const dir = bind.slice(0, -`:${WORK_DIR}/output`.length);
  return { txt: join(dir, `${name}.txt`), yaml: join(dir, `${name}.yaml`), stdout: step ? join(dir, `${step}.stdout`) : null };
}

function exit(container: FakeContainer, code: number): void {
  container.running = false;
  container.exitCode = code;
  for (const wake of container.waiters.splice(0)) wake(code);
}

/** Frames of the engine's multiplexed log stream (stdout). */
function frames(text: string): Buffer {
  if (text === '') return Buffer.alloc(0);
  const body = Buffer.from(text);
  const head = Buffer.alloc(8);
  head[0] = 1;
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
}

/** A loopback stand-in for the Docker Engine API: image pulls, and containers from create to removal. */
export async function startFakeDocker(): Promise<FakeDockerEngine> {
  const requests: EngineRequest[] = [];
  let behaviour: PullBehaviour = { kind: 'succeed' };
  let decide: (container: FakeContainer) => ContainerBehaviour = () => ({ kind: 'exit', code: 0 });
  const live = new Map<string, FakeContainer>();
  const created: FakeContainer[] = [];
  let nextId = 1;
  const find = (idOrName: string) => [...live.values()].find((c) => c.id === idOrName || c.name === idOrName);
  const json = (res: import('node:http').ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  /** Answers with JSON and tells the router the call was handled. */
  const answer = (res: import('node:http').ServerResponse, status: number, body?: unknown): true => {
    json(res, status, body);
    return true;
  };

  function containerCall(method: string, path: string, query: Record<string, string>, body: string, res: import('node:http').ServerResponse): boolean {
    if (method === 'POST' && path === '/containers/create') {
      const name = query.name ?? `c${nextId}`;
      if (find(name)) return answer(res, 409, { message: `Conflict. The container name "/${name}" is already in use` });
      const container: FakeContainer = {
        id: `fake${String(nextId++).padStart(12, '0')}`,
        name,
        config: JSON.parse(body),
        running: false,
        exitCode: 0,
        oomKilled: false,
        killed: false,
        logs: '',
        changes: [],
        waiters: [],
      };
      live.set(container.id, container);
      created.push(container);
      return answer(res, 201, { Id: container.id, Warnings: [] });
    }
    const m = /^\/containers\/([^/]+)(?:\/(start|wait|kill|json|logs|changes))?$/.exec(path);
    if (!m) return false;
    const container = find(m[1]);
    if (!container) return answer(res, 404, { message: `No such container: ${m[1]}` });
    const action = m[2];
    if (method === 'DELETE' && !action) {
      if (container.running && query.force !== 'true') return answer(res, 409, { message: 'You cannot remove a running container' });
      exit(container, container.running ? 137 : container.exitCode);
      live.delete(container.id);
      res.writeHead(204).end();
      return true;
    }
    if (method === 'POST' && action === 'start') {
      container.running = true;
      const does = decide(container);
      const files = outputFiles(container);
      const write = (text?: string, yaml?: string, stdout?: string) => {
        if (files?.stdout) {
          // The step's shell opens its stdout file before the command runs, as `> file` does.
          writeFileSync(files.stdout, stdout ?? '');
          return;
        }
        if (files && text !== undefined) appendFileSync(files.txt, text);
        if (files && yaml !== undefined) writeFileSync(files.yaml, yaml);
      };
      if (does.kind === 'exit') {
        write(does.text ?? '', does.yaml, does.stdout);
        container.logs = does.logs ?? '';
        container.changes = does.changes ?? [];
        exit(container, does.code);
      } else if (does.kind === 'oom') {
        write('');
        container.oomKilled = true;
        exit(container, 137);
      } else {
        write(does.text ?? '', undefined, does.stdout);
      }
      res.writeHead(204).end();
      return true;
    }
    if (method === 'POST' && action === 'wait') {
      if (!container.running) return answer(res, 200, { StatusCode: container.exitCode });
      container.waiters.push((code) => json(res, 200, { StatusCode: code }));
      return true;
    }
    if (method === 'POST' && action === 'kill') {
      if (!container.running) return answer(res, 409, { message: `Container ${container.id} is not running` });
      container.killed = true;
      exit(container, 137);
      res.writeHead(204).end();
      return true;
    }
    if (method === 'GET' && action === 'json') {
      return answer(res, 200, {
        Id: container.id,
        Name: `/${container.name}`,
        State: { Running: container.running, ExitCode: container.exitCode, OOMKilled: container.oomKilled },
      });
    }
    if (method === 'GET' && action === 'logs') {
      res.writeHead(200, { 'content-type': 'application/vnd.docker.raw-stream' });
      res.end(frames(container.logs));
      return true;
    }
    if (method === 'GET' && action === 'changes') return answer(res, 200, container.changes.length ? container.changes : null);
    return false;
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://engine');
    const path = url.pathname.replace(VERSION_PREFIX, '');
    const query = Object.fromEntries(url.searchParams);
    requests.push({ method: req.method ?? 'GET', path, query });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && path === '/images/create') {
        const now = behaviour;
        if (now.kind === 'slow') setTimeout(() => answerPull(res, { kind: 'succeed' }, query), now.ms);
        else answerPull(res, now, query);
        return;
      }
      if (containerCall(req.method ?? 'GET', path, query, Buffer.concat(chunks).toString('utf8'), res)) return;
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `page not found: ${req.method} ${path}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `tcp://127.0.0.1:${port}`,
    requests,
    pulls: () => requests.filter((r) => r.method === 'POST' && r.path === '/images/create').map((r) => ({ fromImage: r.query.fromImage, tag: r.query.tag })),
    behave: (next) => {
      behaviour = next;
    },
    containersDo: (next) => {
      decide = next;
    },
    containers: () => [...live.values()],
    created,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
