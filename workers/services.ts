// What every job is given: the process's database, configuration, clock, store, engines and logger.
// Its own file, so the tasks import it without importing the task list (workers/index.ts) that imports them.
import type { Config } from '../src/config.ts';
import type { Orm } from '../src/db/orm.ts';
import type { Clock } from '../src/lib/clock.ts';
import type { Storage } from '../src/storage/index.ts';
import type { DockerEngine } from '../src/adapters/docker.ts';
import type { Mailer } from '../src/adapters/mailer.ts';
import type { Metrics } from '../src/metrics/index.ts';
import type { Logger } from '../src/lib/logger.ts';

export interface WorkerServices {
  orm: Orm;
  config: Config;
  clock: Clock;
  /** Stored files (src/storage), the same store the API writes. */
  storage: Storage;
  docker: DockerEngine;
  /** Notification e-mails over SMTP (disabled without SMTP_URL). */
  mailer: Mailer;
  /** The process's metrics: the jobs it runs and its job pool are counted there. */
  metrics: Metrics;
  /** The process's logger: one line per job (workers/job-log.ts), and what the runner says. */
  logger: Logger;
}
