import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * A bench's command line: `--help` prints its usage (exit 0); an option it does not know, or a value
 * of the wrong kind, is said on stderr with the usage (exit 1). `options` must declare `help`.
 */
export function benchArgs<T extends Options & { help: { type: 'boolean' } }>(name: string, usage: string, options: T) {
  try {
    const { values } = parseArgs<{ options: T; strict: true; allowPositionals: false }>({ options, strict: true, allowPositionals: false });
    if ((values as { help?: boolean }).help === true) {
      console.log(usage);
      process.exit(0);
    }
    return values;
  } catch (e) {
    console.error(`bench/${name}: ${(e as Error).message}\n${usage}`);
    process.exit(1);
  }
}
