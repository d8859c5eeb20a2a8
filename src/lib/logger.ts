// The service's one logger (pino): JSON lines on stdout, one object per line, which a log shipper
// reads as they are (docs/operating/logs.md). Fastify writes through it (loggerInstance in
// src/app.ts), so do the job runner and everything the service says about itself.
import pino, { type DestinationStream, type Logger as PinoLogger } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config.ts';

export type Logger = PinoLogger;
export type LogLevel = Config['logLevel'];

export interface LoggerOptions {
  level?: LogLevel;
  /** Where the lines go; stdout unless given (the tests capture them here). */
  destination?: DestinationStream;
  /** Readable, coloured lines instead of JSON; by default only when stdout is a terminal and no destination is given. */
  pretty?: boolean;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const readable = options.pretty ?? (options.destination === undefined && process.stdout.isTTY === true);
  const destination =
    options.destination ??
    (readable ? pretty({ colorize: true, sync: true, singleLine: true, ignore: 'pid,hostname' }) : pino.destination({ dest: 1, sync: true }));
  return pino(
    {
      level: options.level ?? 'info',
      // Level names and ISO times: what a log store indexes without a mapping, and what a person reads.
      formatters: { level: (label) => ({ level: label }) },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Errors keep their stack. A request is logged by its route pattern and method only (these
      // replace Fastify's, which would add the raw URL with its query string): no token, password
      // or query string reaches the log. The request line itself is src/http/request-log.ts.
      serializers: {
        err: pino.stdSerializers.err,
        req: (req: { method?: string; routeOptions?: { url?: string } }) => ({ method: req.method, route: req.routeOptions?.url ?? 'unmatched' }),
      },
    },
    destination,
  );
}

/** A `(message) => void` for code that only says what it did (start-up, the embedded database). */
export function infoLine(logger: Logger): (message: string) => void {
  return (message) => logger.info(message);
}
