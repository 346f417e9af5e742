/**
 * Structured logs: one JSON object per line on stdout, for the log pipeline to parse. Keys and
 * secrets must never reach a log line (DESIGN.md, "Logs"); the redaction below is the safety
 * net for the places they are known to travel, not a licence to log whole objects that hold them.
 */
import { type DestinationStream, type LevelWithSilent, type Logger, pino } from 'pino';

export type { Logger } from 'pino';

/**
 * Paths whose values are replaced by `[REDACTED]`. `*` stands for exactly one level, so the
 * top-level names are listed as well.
 */
const redactedPaths: readonly string[] = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  '*.authorization',
  'secret',
  '*.secret',
  'secret_key',
  '*.secret_key',
  'api_key',
  '*.api_key',
];

export interface LoggerOptions {
  /** Lowest level written; `silent` writes nothing. Defaults to `info`. */
  level?: LevelWithSilent;
  /** Where lines go; defaults to stdout. Tests pass a stream to read them back. */
  destination?: DestinationStream;
  /** Written as `name` on every line, to tell processes apart. */
  name?: string;
}

/**
 * Creates the process logger: JSON lines with an ISO `time`, the level as a word and the
 * secrets of `redactedPaths` censored.
 *
 * @example
 * const logger = createLogger({ level: config.LOG_LEVEL });
 * logger.info({ port }, 'listening');
 */
export function createLogger(options: LoggerOptions = {}): Logger {
  const { level = 'info', destination, name } = options;
  return pino(
    {
      level,
      ...(name === undefined ? {} : { name }),
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...redactedPaths], censor: '[REDACTED]' },
    },
    destination,
  );
}

/**
 * A logger for one request: every line it writes carries `request_id`, the id the client sees
 * in `X-Request-Id`, so support can find all lines of a call from what the integrator quotes.
 *
 * @example
 * const log = childForRequest(logger, res.locals.requestId);
 * log.warn({ code: 'insufficient_balance' }, 'payout refused');
 */
export function childForRequest(logger: Logger, requestId: string): Logger {
  return logger.child({ request_id: requestId });
}
