import type { Statement } from 'better-sqlite3';

/**
 * Statements by name, each prepared on first use: a caller that needs a few of many
 * statements (a CLI diff, a history) does not pay for preparing them all.
 */
export function lazyStatements(defs: Record<string, () => Statement>): (name: string) => Statement {
  const prepared = new Map<string, Statement>();
  return (name) => {
    let s = prepared.get(name);
    if (!s) {
      const def = defs[name];
      if (!def) throw new Error(`no statement ${name}`);
      prepared.set(name, (s = def()));
    }
    return s;
  };
}
