/** One run of a word-level diff. */
export interface DiffSegment {
  op: 'equal' | 'insert' | 'delete';
  text: string;
}

// Words keep inner dots and apostrophes ("706.10", "don't"); whitespace and punctuation are their own tokens.
const TOKEN_RE = /\s+|[\p{L}\p{N}]+(?:[.’'][\p{L}\p{N}]+)*|[^\s\p{L}\p{N}]/gu;

/** Splits a text into word, whitespace and punctuation tokens that concatenate back to the text. */
export function tokenizeWords(text: string): string[] {
  return text.match(TOKEN_RE) ?? [];
}

/** Myers O(ND) diff of two integer sequences; returns the edit script as ops per token. */
function myers(a: Int32Array, b: Int32Array): Array<[0 | 1 | -1, number]> {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d]: v as step d found it, diagonals -d-1..d+1 only (all the backtrack reads; the rest is still 0):
  // a whole copy per step made long texts cost O(D·(N+M)) memory and most of a diff page's garbage
  const trace: Int32Array[] = [];
  let done = false;
  for (let d = 0; d <= max && !done; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x: number;
      if (k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!)) x = v[offset + k + 1]!;
      else x = v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        done = true;
        break;
      }
    }
  }
  // backtrack
  const ops: Array<[0 | 1 | -1, number]> = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0 && (x > 0 || y > 0); d--) {
    const vd = trace[d]!;
    // (diagonal k of step d is vd[d + 1 + k])
    const at = d + 1;
    const k = x - y;
    let prevK: number;
    if (k === -d || (k !== d && vd[at + k - 1]! < vd[at + k + 1]!)) prevK = k + 1;
    else prevK = k - 1;
    const prevX = d === 0 ? 0 : vd[at + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push([0, --x]);
      y--;
    }
    if (d === 0) break;
    if (x === prevX) ops.push([1, --y]);
    else ops.push([-1, --x]);
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push([0, --x]);
    y--;
  }
  return ops.reverse();
}

function pushSeg(out: DiffSegment[], op: DiffSegment['op'], text: string): void {
  if (!text) return;
  const last = out[out.length - 1];
  if (last && last.op === op) last.text += text;
  else out.push({ op, text });
}

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(String.fromCharCode(c)));

/**
 * How many leading and trailing characters `before` and `after` share, each cut back to a point where
 * whitespace is followed by other text: a token boundary in both texts (a whitespace run is one token,
 * no other token holds whitespace), so the shared ends need not be split into words at all.
 */
function sharedEnds(before: string, after: string): [head: number, tail: number] {
  const n = Math.min(before.length, after.length);
  let p = 0;
  while (p < n && before.charCodeAt(p) === after.charCodeAt(p)) p++;
  // (before and after agree up to p; at p either may have ended, an end being a boundary too)
  while (p > 0 && !(isSpace(before.charCodeAt(p - 1)) && !isSpace(before.charCodeAt(p)) && !isSpace(after.charCodeAt(p)))) p--;
  let s = 0;
  while (s < n - p && before.charCodeAt(before.length - 1 - s) === after.charCodeAt(after.length - 1 - s)) s++;
  // the tail starts after whitespace and with other text, in both texts (whose characters before it may differ)
  const startsTail = (t: string, k: number): boolean => k > 0 && isSpace(t.charCodeAt(k - 1)) && !isSpace(t.charCodeAt(k));
  while (s > 0 && !(startsTail(before, before.length - s) && startsTail(after, after.length - s))) s--;
  return [p, s];
}

/** Word-level diff: equal/insert/delete segments whose equal+delete texts rebuild `before` and equal+insert rebuild `after`. */
export function wordDiff(before: string, after: string): DiffSegment[] {
  if (before === after) return before ? [{ op: 'equal', text: before }] : [];
  // The shared ends are left out of the words (long texts changed in a few words: most of the work); the
  // answer is the whole texts' unless the shared start runs into the end of either middle, where the
  // whole texts' split between shared start and shared end may differ: those are split whole.
  const [head, tail] = sharedEnds(before, after);
  let ta = tokenizeWords(before.slice(head, before.length - tail));
  let tb = tokenizeWords(after.slice(head, after.length - tail));
  let pre = 0;
  while (pre < ta.length && pre < tb.length && ta[pre] === tb[pre]) pre++;
  let start = head;
  let end = tail;
  if ((head > 0 || tail > 0) && (pre === ta.length || pre === tb.length)) {
    ta = tokenizeWords(before);
    tb = tokenizeWords(after);
    start = 0;
    end = 0;
    pre = 0;
    while (pre < ta.length && pre < tb.length && ta[pre] === tb[pre]) pre++;
  }
  let suf = 0;
  while (suf < ta.length - pre && suf < tb.length - pre && ta[ta.length - 1 - suf] === tb[tb.length - 1 - suf]) suf++;
  const ids = new Map<string, number>();
  const intern = (t: string): number => {
    let id = ids.get(t);
    if (id === undefined) ids.set(t, (id = ids.size));
    return id;
  };
  const midA = ta.slice(pre, ta.length - suf);
  const midB = tb.slice(pre, tb.length - suf);
  const a = Int32Array.from(midA, intern);
  const b = Int32Array.from(midB, intern);
  const raw: DiffSegment[] = [];
  pushSeg(raw, 'equal', before.slice(0, start) + ta.slice(0, pre).join(''));
  let ia = 0;
  let ib = 0;
  for (const [op] of myers(a, b)) {
    if (op === 0) {
      pushSeg(raw, 'equal', midA[ia++]!);
      ib++;
    } else if (op === -1) pushSeg(raw, 'delete', midA[ia++]!);
    else pushSeg(raw, 'insert', midB[ib++]!);
  }
  pushSeg(raw, 'equal', ta.slice(ta.length - suf).join('') + before.slice(before.length - end));
  return cleanup(raw);
}

// Folds a whitespace-only equal run between two changes into the changes, then groups
// each change block as one delete followed by one insert.
function cleanup(segs: DiffSegment[]): DiffSegment[] {
  const out: DiffSegment[] = [];
  let del = '';
  let ins = '';
  const flush = (): void => {
    pushSeg(out, 'delete', del);
    pushSeg(out, 'insert', ins);
    del = '';
    ins = '';
  };
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i]!;
    if (s.op === 'delete') del += s.text;
    else if (s.op === 'insert') ins += s.text;
    else if ((del || ins) && /^\s+$/.test(s.text) && i + 1 < segs.length) {
      del += s.text;
      ins += s.text;
    } else {
      flush();
      pushSeg(out, 'equal', s.text);
    }
  }
  flush();
  return out;
}

const OPS: ReadonlyArray<DiffSegment['op']> = ['equal', 'delete', 'insert'];

/** Appends a word diff to `out` compactly: its segment count, then each segment's length × 4 + op (the texts are the diffed ones). */
export function packSegments(segs: readonly DiffSegment[], out: number[]): void {
  out.push(segs.length);
  for (const s of segs) out.push(s.text.length * 4 + OPS.indexOf(s.op));
}

/** The word diff of `before` and `after` packed at `packed[at]` (packSegments), and where the next one starts. */
export function unpackSegments(before: string, after: string, packed: ArrayLike<number>, at: number): [DiffSegment[], number] {
  const n = packed[at++]!;
  const segs: DiffSegment[] = new Array<DiffSegment>(n);
  // equal and deleted text is read from `before`, equal and inserted text from `after`
  let b = 0;
  let a = 0;
  for (let k = 0; k < n; k++) {
    const x = packed[at++]!;
    const len = x >> 2;
    const op = OPS[x & 3]!;
    if (op === 'insert') segs[k] = { op, text: after.slice(a, (a += len)) };
    else {
      segs[k] = { op, text: before.slice(b, (b += len)) };
      if (op === 'equal') a += len;
    }
  }
  return [segs, at];
}
