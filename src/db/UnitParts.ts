import type { Db } from './openDb.js';
import { lazyStatements } from './lazyStatements.js';

/** A named part of an IPG infraction as stored (schema/010_core.sql unit_parts). */
export interface UnitPartRecord {
  name: string;
  text: string;
}

/** Reads the named parts of tournament-document units (IPG infractions) by rule version. */
export class UnitParts {
  private readonly st;

  constructor(db: Db) {
    this.st = lazyStatements({
      // a database written before unit_parts existed has no such table: no parts
      has: () => db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'unit_parts'`).pluck(),
      parts: () => db.prepare('SELECT parts FROM unit_parts WHERE version_id = @versionId').pluck(),
    });
  }

  /** The parts of a rule version, in published order (none for the CR, the MTR and an IPG section with no parts). */
  of(versionId: number): UnitPartRecord[] {
    if (this.st('has').get() === undefined) return [];
    const raw = this.st('parts').get({ versionId }) as string | undefined;
    return raw === undefined ? [] : (JSON.parse(raw) as UnitPartRecord[]);
  }
}
