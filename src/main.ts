// `npm start`: runs the service until SIGTERM or SIGINT, then stops it in order and exits 0.
// A repeated signal is ignored: a Ctrl-C reaches this process both from the terminal and through
// npm, and the stop is bounded by SHUTDOWN_GRACE_SECONDS anyway.
import { loadConfig, type Config } from './config.ts';
import { createLogger } from './lib/logger.ts';
import type { RunningService } from './service.ts';

// At `info` until the configuration is read (LOG_LEVEL), so that a configuration error is logged too.
const logger = createLogger();

function fail(what: string, error: unknown): never {
  logger.fatal({ err: error }, `${what}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

let starting: Promise<RunningService> | undefined;
let stopping = false;

async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info(`${signal}: finishing requests and jobs in flight, then stopping`);
  try {
    // A signal during start-up waits for the start to finish, so that the stop finds everything it must close.
    const service = await starting?.catch(() => undefined);
    await service?.stop();
  } catch (error) {
    fail('stopping failed', error);
  }
  logger.info('stopped');
  process.exit(0);
}

// Installed before the service's modules load (they are imported below, not statically), so that a
// signal at any moment of start-up still ends in the ordered stop.
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('unhandledRejection', (error) => logger.error({ err: error }, 'unhandled rejection'));

let config: Config;
try {
  config = loadConfig();
  logger.level = config.logLevel;
} catch (error) {
  fail('configuration error', error);
}
starting = import('./service.ts').then(({ startService }) => startService(config, logger));
try {
  await starting;
} catch (error) {
  fail('cannot start', error);
}
