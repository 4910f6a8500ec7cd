import { outranks, type Ranked } from './outranks.js';

/**
 * Which parsed copies of an edition may yet be the one stored. An edition stores its best copy
 * (outranks), so a copy outranked by one already sent to the storing thread never is: its document
 * need not be serialized. Keyed by "family|date", the edition the storing thread files a copy under.
 */
export class CopyGate {
  private readonly best = new Map<string, Ranked>();

  /** Whether a copy of edition `key` (null: not known yet) may be stored; it is remembered if it is the best so far. */
  admits(key: string | null, copy: Ranked): boolean {
    if (key === null) return true;
    const best = this.best.get(key);
    if (best && outranks(best, copy)) return false;
    this.best.set(key, copy);
    return true;
  }
}
