/** A copy of an edition as its ranking sees it: official or not (see copyProvenance), its typographic fidelity (see parseTask) and file hash. */
export interface Ranked {
  official: boolean;
  fidelity: number[];
  sha256: string;
}

/** Whether copy `a` is better than `b`: an official copy first, then fewer unaccounted lines and warnings, then richer typography, then the lower hash. */
export function outranks(a: Ranked, b: Ranked): boolean {
  if (a.official !== b.official) return a.official;
  const fa = a.fidelity;
  const fb = b.fidelity;
  for (let i = 0; i < fa.length; i++) if (fa[i] !== fb[i]) return fa[i]! > fb[i]!;
  return a.sha256 < b.sha256;
}
