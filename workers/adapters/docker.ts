import Docker from 'dockerode';

/** The part of a Docker engine the service uses. Tests point it at a loopback fake engine. */
export interface DockerEngine {
  /** Pulls an image and resolves with the engine's progress log; rejects when the pull fails. */
  pull(reference: string): Promise<string>;
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

export function dockerEngine(host: string | undefined, registryProxy?: string): DockerEngine {
  const docker = new Docker(dockerOptions(host));
  return {
    pull(reference) {
      const source = registryProxy ? `${registryProxy.replace(/\/$/, '')}/${reference}` : reference;
      return new Promise((resolve, reject) => {
        docker.pull(source, (err: Error | null, stream: NodeJS.ReadableStream) => {
          if (err) return reject(err);
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
    },
  };
}
