import type { EditionInfo, Family } from '../core/records.js';
import { resolveEdition } from '../core/resolveEdition.js';
import type { Db } from './openDb.js';

/** Thrown when an edition argument names no stored edition. */
export class UnknownEditionError extends Error {
  override name = 'UnknownEditionError';
}

/** What ingest asks of the stored editions while it writes: file hashes, official editions, an edition by argument. */
export class Catalog {
  private readonly s;

  constructor(readonly db: Db) {
    this.s = {
      editions: db.prepare(
        `SELECT id, family, effective_date AS effectiveDate, official, label, set_code AS setCode, set_name AS setName, title
         FROM editions ORDER BY family, effective_date, label`,
      ),
      hashes: db.prepare('SELECT sha256 FROM source_files').pluck(),
    };
  }

  /** sha256 of every stored source file. */
  sourceHashes(): Set<string> {
    return new Set(this.s.hashes.all() as string[]);
  }

  /** Every stored edition, by family then date. */
  editions(): EditionInfo[] {
    return (this.s.editions.all() as Array<Omit<EditionInfo, 'official'> & { official: number }>).map((e) => ({ ...e, official: e.official === 1 }));
  }

  /** Family and date of every official edition. */
  officialEditions(): Array<{ family: Family; effectiveDate: string }> {
    return this.editions()
      .filter((e) => e.official)
      .map((e) => ({ family: e.family, effectiveDate: e.effectiveDate }));
  }

  /** Resolves an edition argument as the query layer does (core/resolveEdition), or throws UnknownEditionError. */
  resolveEdition(arg: string, family: Family = 'cr'): EditionInfo {
    const r = resolveEdition(this.editions(), arg, family);
    if (r.problem !== undefined) throw new UnknownEditionError(r.problem);
    return r.edition;
  }
}
