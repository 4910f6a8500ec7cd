const DAY_MS = 86_400_000;

/** Days from `b` to `a` (negative when `a` is earlier); whole days for two YYYY-MM-DD dates. */
export function daysBetween(a: string, b: string): number {
  return (Date.parse(a) - Date.parse(b)) / DAY_MS;
}

/** The YYYY-MM-DD date `days` days after `date` (before, when negative). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
