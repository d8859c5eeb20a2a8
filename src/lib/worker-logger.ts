import { Logger } from 'graphile-worker';

/**
 * graphile-worker's logger, quiet except for errors unless `quiet` is false: its info lines
 * (every job started and finished) would drown the service's own log.
 */
export function workerLogger(quiet: boolean): Logger {
  return new Logger(() => (level, message) => {
    if (!quiet || level === 'error') console.error(`[worker:${level}] ${message}`);
  });
}
