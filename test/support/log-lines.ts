import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../server/observability/logger.js';

export interface LogLine {
  level: string;
  msg?: string;
  [field: string]: unknown;
}

/** A server logger at `info` whose JSON lines are parsed into `lines` as they are written. */
export function collectingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger({ level: 'info', destination: sink }), lines };
}

/** The lines logged as errors (or worse) since `from`. */
export const errorsSince = (lines: LogLine[], from = 0) =>
  lines.slice(from).filter((line) => line.level === 'error' || line.level === 'fatal');
