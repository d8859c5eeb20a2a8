import Docker from 'dockerode';

/** The part of a Docker engine the service uses. Tests point it at a loopback fake engine. */
export interface DockerEngine {
  /**
   * Pulls an image and resolves with the engine's progress log; rejects when the pull fails, and
   * at once with an AbortError when `signal` fires (the worker is stopping).
   */
  pull(reference: string, signal?: AbortSignal): Promise<string>;
}

/** dockerode options from a DOCKER_HOST value: tcp://host:port, http(s)://..., unix:///path, or unset (local socket). */
export function dockerOptions(host: string | undefined): Docker.DockerOptions {
  if (!host) return { socketPath: '/var/run/docker.sock' };
  if (host.startsWith('unix://')) return { socketPath: host.slice('unix://'.length) };
  const url = new URL(host.replace(/^tcp:/, 'http:'));
  return { host: url.hostname, port: Number(url.port || 2375), protocol: url.protocol === 'https:' ? 'https' : 'http' };
}

interface ProgressEvent {
  status?: string;
  id?: string;
  error?: string;
  errorDetail?: { message?: string };
}

export interface DockerTimeouts {
  /** No word from the engine for this long ends the call. */
  idleMs: number;
  /** A whole pull, however chatty the engine, ends after this long. */
  pullMs: number;
}

const DEFAULT_TIMEOUTS: DockerTimeouts = { idleMs: 60_000, pullMs: 30 * 60_000 };

/**
 * Rejects with `message` if `work` has not settled within `ms`, or with an AbortError when `signal`
 * fires; either way `release` lets go of what the work holds.
 */
function deadline<T>(work: Promise<T>, ms: number, message: string, release: () => void, signal?: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout;
  let onAbort: () => void = () => {};
  const ended = new Promise<never>((_, reject) => {
    const end = (error: Error) => {
      release();
      reject(error);
    };
    timer = setTimeout(() => end(new Error(message)), ms);
    onAbort = () => end(new DOMException('The pull was abandoned because the worker is stopping', 'AbortError'));
    if (signal?.aborted) onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([work, ended]).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  });
}

export function dockerEngine(host: string | undefined, registryProxy?: string, timeouts: DockerTimeouts = DEFAULT_TIMEOUTS): DockerEngine {
  // An engine that accepts the connection and never answers must not hold a job forever.
  const docker = new Docker({ ...dockerOptions(host), timeout: timeouts.idleMs });
  return {
    pull(reference, signal) {
      const source = registryProxy ? `${registryProxy.replace(/\/$/, '')}/${reference}` : reference;
      let stream: NodeJS.ReadableStream | undefined;
      const pulling = new Promise<string>((resolve, reject) => {
        docker.pull(source, (err: Error | null, output: NodeJS.ReadableStream) => {
          if (err)
            return reject(err.message === 'socket hang up' ? new Error(`The Docker engine stopped answering (no word for ${timeouts.idleMs / 1000} s)`) : err);
          stream = output;
          docker.modem.followProgress(stream, (doneErr: Error | null, events: ProgressEvent[]) => {
            if (doneErr) return reject(doneErr);
            // The engine reports a failed pull inside the stream, with a 200 status.
            const failure = events.find((e) => e.error);
            if (failure) return reject(new Error(failure.errorDetail?.message ?? failure.error));
            const log = events
              .filter((e) => e.status)
              .map((e) => (e.id ? `${e.id}: ${e.status}` : e.status))
              .join('\n');
            resolve(log);
          });
        });
      });
      const seconds = Math.round(timeouts.pullMs / 1000);
      const release = () => (stream as { destroy?: () => void } | undefined)?.destroy?.();
      return deadline(pulling, timeouts.pullMs, `Pulling ${source} did not finish within ${seconds} s`, release, signal);
    },
  };
}
