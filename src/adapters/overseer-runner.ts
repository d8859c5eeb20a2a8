// Runs one step (build or run) of an automated assessment in a container, through dockerode, as
// behaviour.md §6 describes the original runner: the sandbox and output folders bind-mounted, the
// step's script writing into output/, with limits on time, memory, CPU and processes, no network,
// an unprivileged user, a read-only root and no capabilities. The container is always removed.
import Docker from 'dockerode';
import { dockerOptions } from './docker.ts';

export interface StepLimits {
  timeoutMs: number;
  memoryMb: number;
  cpus: number;
  pidsLimit: number;
  /** uid:gid the step runs as. */
  user: string;
}

export interface StepRequest {
  /** Container name; a leftover of a crashed worker is found again by it. */
  name: string;
  image: string;
  mode: 'build' | 'run';
  /** The file name (without extension) the step writes into output/: `<outputName>.txt` and `.yaml`. */
  outputName: string;
  /** Host folders mounted at sandbox/ and output/ of the working directory. */
  sandboxDir: string;
  outputDir: string;
  /**
   * The shell script to run instead of `mode`'s script and its arguments (`$0`, `$1`, ...): an
   * assessment step's command (docs/assessment-steps.md).
   */
  command?: string[];
  /** A host folder mounted read-only at inputs/ (a step's stdin and expected files, copied before any step ran). */
  inputsDir?: string;
  limits: StepLimits;
  signal?: AbortSignal;
}

export interface StepResult {
  exitCode: number;
  /** Killed at the time limit. */
  timedOut: boolean;
  /** Killed by the kernel at the memory limit. */
  oomKilled: boolean;
  /** What the step wrote to its own stdout and stderr (the script's stdout goes to output/). */
  logs: string;
  /** `docker diff` of the container: one `A|C|D path` line per change. */
  diff: string;
}

export interface OverseerRunner {
  runStep(request: StepRequest): Promise<StepResult>;
  /** Removes these containers if they exist (left by a worker that died mid-step). */
  removeContainers(names: string[]): Promise<void>;
}

export const WORK_DIR = '/home/overseer/work-dir';
const MAX_LOG_BYTES = 64 * 1024;

/**
 * The container command of an assessment step: `sh -c run_command` in sandbox/, its stdin from
 * inputs/<file> (or /dev/null), its stdout into output/<outputName>.stdout; stderr stays in the
 * container's logs. The command and the paths are arguments, never spliced into the script.
 */
export function assessmentStepCommand(runCommand: string, stdinFile: string | null, outputName: string): string[] {
  return [
    `cd ${WORK_DIR}/sandbox && sh -c "$1" < "$2" > "$3"`,
    'step',
    runCommand,
    stdinFile === null ? '/dev/null' : `${WORK_DIR}/inputs/${stdinFile}`,
    `${WORK_DIR}/output/${outputName}.stdout`,
  ];
}

export function stepCommand(mode: 'build' | 'run', outputName: string): string {
  return `chmod u+x sandbox/${mode}.sh && sandbox/${mode}.sh output/${outputName}.yaml >> output/${outputName}.txt`;
}

/** The engine's multiplexed log stream (8-byte frame headers) as plain text. */
export function demuxLogs(raw: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  while (at + 8 <= raw.length && raw[at] <= 2 && raw[at + 1] === 0) {
    const size = raw.readUInt32BE(at + 4);
    parts.push(raw.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  const text = (at === 0 ? raw : Buffer.concat(parts)).toString('utf8');
  return text.length > MAX_LOG_BYTES ? `${text.slice(0, MAX_LOG_BYTES)}\n[output cut at ${MAX_LOG_BYTES} bytes]\n` : text;
}

const KINDS = ['C', 'A', 'D'];

const statusOf = (error: unknown): number | undefined => (error as { statusCode?: number }).statusCode;

function abortError(): DOMException {
  return new DOMException('The assessment was abandoned because the worker is stopping', 'AbortError');
}

export function overseerRunner(host: string | undefined, idleMs: number): OverseerRunner {
  const options = dockerOptions(host);
  // Every call but the wait must hear from the engine within idleMs; the wait lasts the step.
  const docker = new Docker({ ...options, timeout: idleMs });

  async function remove(container: Docker.Container): Promise<void> {
    try {
      await container.remove({ force: true, v: true });
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }

  return {
    async removeContainers(names) {
      for (const name of names) await remove(docker.getContainer(name));
    },

    async runStep(request) {
      const { limits, signal } = request;
      if (signal?.aborted) throw abortError();
      const container = await docker.createContainer({
        name: request.name,
        Image: request.image,
        Entrypoint: ['/bin/sh', '-c'],
        Cmd: request.command ?? [stepCommand(request.mode, request.outputName)],
        WorkingDir: WORK_DIR,
        User: limits.user,
        NetworkDisabled: true,
        Tty: false,
        HostConfig: {
          Binds: [
            `${request.sandboxDir}:${WORK_DIR}/sandbox`,
            `${request.outputDir}:${WORK_DIR}/output`,
            ...(request.inputsDir ? [`${request.inputsDir}:${WORK_DIR}/inputs:ro`] : []),
          ],
          NetworkMode: 'none',
          Memory: limits.memoryMb * 1024 * 1024,
          MemorySwap: limits.memoryMb * 1024 * 1024,
          NanoCpus: Math.round(limits.cpus * 1e9),
          PidsLimit: limits.pidsLimit,
          ReadonlyRootfs: true,
          Tmpfs: { '/tmp': 'rw,nosuid,nodev,size=64m' },
          CapDrop: ['ALL'],
          SecurityOpt: ['no-new-privileges'],
          RestartPolicy: { Name: 'no' },
        },
      });
      try {
        // The wait is a request that stays open for the whole step, so it gets its own deadline.
        const waiter = new Docker({ ...options, timeout: limits.timeoutMs + idleMs });
        await container.start();
        const exited = waiter.getContainer(container.id).wait() as Promise<{ StatusCode: number }>;
        exited.catch(() => undefined);
        let timer: NodeJS.Timeout | undefined;
        let onAbort = () => {};
        const outcome = await new Promise<'exited' | 'timeout' | 'aborted'>((resolve, reject) => {
          timer = setTimeout(() => resolve('timeout'), limits.timeoutMs);
          onAbort = () => resolve('aborted');
          signal?.addEventListener('abort', onAbort, { once: true });
          exited.then(() => resolve('exited'), reject);
        }).finally(() => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        });
        if (outcome !== 'exited') {
          // A shell as PID 1 ignores SIGTERM; SIGKILL from the engine always ends it.
          await container.kill({ signal: 'SIGKILL' }).catch((error) => {
            if (statusOf(error) !== 409 && statusOf(error) !== 404) throw error;
          });
          if (outcome === 'aborted') throw abortError();
          // The kill is asynchronous; the exit code and diff are read once the container has stopped.
          await Promise.race([exited.catch(() => undefined), new Promise((r) => setTimeout(r, idleMs).unref())]);
        }
        const inspected = await container.inspect();
        const logs = demuxLogs((await container.logs({ stdout: true, stderr: true, follow: false })) as unknown as Buffer);
        const changes = ((await container.changes()) ?? []) as { Path: string; Kind: number }[];
        return {
          exitCode: inspected.State.ExitCode ?? (outcome === 'timeout' ? 137 : -1),
          timedOut: outcome === 'timeout',
          oomKilled: inspected.State.OOMKilled === true,
          logs,
          diff: changes.map((c) => `${KINDS[c.Kind] ?? '?'} ${c.Path}`).join('\n'),
        };
      } finally {
        await remove(container);
      }
    },
  };
}
