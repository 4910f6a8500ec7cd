import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './UsageError.js';

/** Default database file: $CRKB_DB or data/crkb.db. */
export function defaultDbFile(): string {
  return process.env.CRKB_DB ?? 'data/crkb.db';
}

/** Parses argv with node's parseArgs, turning its errors into UsageError. */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, usage: string, allowPositionals = true) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message, usage);
  }
}
