import { destination, pino, stdTimeFunctions, type Logger } from 'pino';

/**
 * The server's structured log: JSON lines on stderr (pino), level from $CRKB_LOG_LEVEL (default info).
 * Written synchronously: at info only errors, refusals and slow answers are logged (every answer at
 * debug), and a line written before a crash must not be lost.
 */
export const log: Logger = pino(
  {
    level: process.env.CRKB_LOG_LEVEL ?? 'info',
    base: { pid: process.pid },
    timestamp: stdTimeFunctions.isoTime,
  },
  destination({ dest: 2, sync: true }),
);
