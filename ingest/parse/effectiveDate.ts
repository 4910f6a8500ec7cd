const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

// "These rules are current as of March 15, 2003." / "These rules are effective as of November 18, 2022."
const AS_OF = /\b(?:current|effective)\s+as\s+of\s+([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})/i;
// 1999 header: "COMPREHENSIVE RULES      04/23/99"
const HEADER = /COMPREHENSIVE\s+RULES\s+(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})\b/i;

function iso(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCMonth() !== month - 1) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The effective date a Comprehensive Rules document states of itself, as YYYY-MM-DD, or null. */
export function findEffectiveDate(text: string): string | null {
  const m = AS_OF.exec(text);
  if (m) {
    const month = MONTHS.indexOf((m[1] ?? '').toLowerCase()) + 1;
    const r = iso(Number(m[3]), month, Number(m[2]));
    if (r) return r;
  }
  const h = HEADER.exec(text.slice(0, 5000));
  if (h) {
    let year = Number(h[3]);
    if (year < 100) year += year < 70 ? 2000 : 1900;
    return iso(year, Number(h[1]), Number(h[2]));
  }
  return null;
}
