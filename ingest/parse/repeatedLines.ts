/** How many non-blank lines a text has, and how many of them occur more than once (compared trimmed). */
export function repeatedLines(text: string): { lines: number; repeated: number } {
  const counts = new Map<string, number>();
  let lines = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    lines++;
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  let repeated = 0;
  for (const n of counts.values()) if (n > 1) repeated += n;
  return { lines, repeated };
}
