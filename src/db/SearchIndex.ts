/** How the FTS5 unicode61 tokenizer treats a character. */
export type CharClass = 'separator' | 'token' | 'join';

/** A character's class for the tokenizer (only asked for characters outside ASCII). */
export type ClassOf = (codePoint: number) => CharClass;

/**
 * Token boundaries of a text as the FTS5 unicode61 tokenizer finds them (its
 * fts5UnicodeTokenize, with no tokenchars/separators options): a token starts
 * at a token character (an ASCII letter or digit, or what `classOf` calls
 * 'token') and runs through token and 'join' characters (diacritics). Returns
 * [start0, end0, start1, end1, ...] as string indexes.
 */
export function tokenSpans(text: string, classOf: ClassOf): number[] {
  const out: number[] = [];
  const n = text.length;
  let i = 0;
  for (;;) {
    let start = -1;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c < 128) {
        if (isAsciiAlnum(c)) {
          start = i++;
          break;
        }
        i++;
      } else {
        const cp = text.codePointAt(i)!;
        const w = cp > 0xffff ? 2 : 1;
        if (classOf(cp) === 'token') {
          start = i;
          i += w;
          break;
        }
        i += w;
      }
    }
    if (start < 0) return out;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c < 128) {
        if (!isAsciiAlnum(c)) break;
        i++;
      } else {
        const cp = text.codePointAt(i)!;
        if (classOf(cp) === 'separator') break;
        i += cp > 0xffff ? 2 : 1;
      }
    }
    out.push(start, i);
  }
}

function isAsciiAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** One document of a SearchIndex: its id and body. */
export interface IndexedText {
  id: number;
  body: string;
}

/** The index term of a token (as it stands in the text), as FTS5 makes it. */
export type TermOf = (token: string) => string | undefined;

/** A text matching a query, with its bm25 score (lower is better). */
export interface IndexMatch {
  textId: number;
  score: number;
}

const K1 = 1.2;
const B = 0.75;

/**
 * The full-text index of one edition in plain JavaScript, built from the
 * tokens and terms FTS5 itself produced (see EditionSearch, which checks it
 * against the FTS5 index): matching of single-term phrases (all or any),
 * bm25 scores computed exactly as FTS5's bm25() does, and snippet() and
 * highlight() as FTS5 makes them. Answers a query without a statement per
 * text, which is where the time of a search went.
 */
export class SearchIndex {
  private readonly termIds = new Map<string, number>();
  /** postings of term t: docs postDoc[postStart[t] .. postStart[t+1]) (ascending) with counts postTf */
  private readonly postStart: Int32Array;
  private readonly postDoc: Int32Array;
  private readonly postTf: Int32Array;
  private readonly docIds: Int32Array;
  private readonly docIndex = new Map<number, number>();
  /** term ids of every token of doc d: docTerms[docStart[d] .. docStart[d+1]) */
  private readonly docStart: Int32Array;
  private readonly docTerms: Int32Array;
  /** start and end (string index) of every token, in docTerms' order: token k at [2k, 2k+1] */
  private readonly docSpans: Uint16Array | Uint32Array;
  private readonly bodies: string[];
  readonly avgdl: number;
  private readonly idfByHits = new Map<number, number>();

  /**
   * `log` must be the C library's log (FTS5 computes IDFs with it; JavaScript's
   * Math.log may differ in the last bit).
   */
  constructor(
    texts: readonly IndexedText[],
    classOf: ClassOf,
    termOf: TermOf,
    private readonly log: (x: number) => number,
  ) {
    const nDocs = texts.length;
    this.docIds = new Int32Array(nDocs);
    this.docStart = new Int32Array(nDocs + 1);
    this.bodies = new Array<string>(nDocs);
    const docTerms: number[] = [];
    const docSpans: number[] = [];
    // count (term, doc) pairs first, then fill the flat posting arrays
    const pairCount: number[] = [];
    const lastDoc: number[] = [];
    texts.forEach((t, d) => {
      this.docIds[d] = t.id;
      this.docIndex.set(t.id, d);
      this.bodies[d] = t.body;
      this.docStart[d] = docTerms.length;
      const spans = tokenSpans(t.body, classOf);
      for (const x of spans) docSpans.push(x);
      for (let k = 0; k < spans.length; k += 2) {
        const term = termOf(t.body.slice(spans[k], spans[k + 1]));
        if (term === undefined) throw new Error(`SearchIndex: no term for a token of text ${t.id}`);
        let id = this.termIds.get(term);
        if (id === undefined) {
          id = this.termIds.size;
          this.termIds.set(term, id);
          pairCount.push(0);
          lastDoc.push(-1);
        }
        docTerms.push(id);
        if (lastDoc[id] !== d) {
          lastDoc[id] = d;
          pairCount[id]!++;
        }
      }
    });
    const nTokens = docTerms.length;
    this.docTerms = Int32Array.from(docTerms);
    this.docSpans = texts.every((t) => t.body.length <= 0xffff) ? Uint16Array.from(docSpans) : Uint32Array.from(docSpans);
    this.docStart[nDocs] = nTokens;
    const nTerms = this.termIds.size;
    this.postStart = new Int32Array(nTerms + 1);
    for (let t = 0; t < nTerms; t++) this.postStart[t + 1] = this.postStart[t]! + pairCount[t]!;
    this.postDoc = new Int32Array(this.postStart[nTerms]!);
    this.postTf = new Int32Array(this.postStart[nTerms]!);
    const fill = this.postStart.slice(0, nTerms);
    for (let d = 0; d < nDocs; d++) {
      for (let k = this.docStart[d]!; k < this.docStart[d + 1]!; k++) {
        const t = this.docTerms[k]!;
        const at = fill[t]!;
        // docs are visited in ascending order: the doc is new for this term unless it is the last one written
        if (at > this.postStart[t]! && this.postDoc[at - 1] === d) this.postTf[at - 1]!++;
        else {
          this.postDoc[at] = d;
          this.postTf[at] = 1;
          fill[t] = at + 1;
        }
      }
    }
    this.avgdl = nTokens / nDocs;
  }

  /** Number of indexed texts. */
  get size(): number {
    return this.docIds.length;
  }

  /** Tokens of a text (as stored). */
  docSize(textId: number): number | undefined {
    const d = this.docIndex.get(textId);
    return d === undefined ? undefined : this.docStart[d + 1]! - this.docStart[d]!;
  }

  /** For each term: [term, texts containing it, occurrences] (to compare with fts5vocab). */
  *termStats(): Generator<[string, number, number]> {
    for (const [term, t] of this.termIds) {
      let n = 0;
      for (let k = this.postStart[t]!; k < this.postStart[t + 1]!; k++) n += this.postTf[k]!;
      yield [term, this.postStart[t + 1]! - this.postStart[t]!, n];
    }
  }

  private idf(nHit: number): number {
    let v = this.idfByHits.get(nHit);
    if (v === undefined) {
      const nRow = this.docIds.length;
      v = this.log((nRow - nHit + 0.5) / (nHit + 0.5));
      if (v <= 0.0) v = 1e-6;
      this.idfByHits.set(nHit, v);
    }
    return v;
  }

  /** The count of term t in doc d (0 when absent), by binary search in t's postings. */
  private tf(t: number, d: number): number {
    let lo = this.postStart[t]!;
    let hi = this.postStart[t + 1]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const x = this.postDoc[mid]!;
      if (x === d) return this.postTf[mid]!;
      if (x < d) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  /**
   * Texts with every phrase ('and') or any phrase ('or'), each phrase one
   * index term, with bm25 scores (FTS5's bm25(): k1 1.2, b 0.75, same
   * operations in the same order, so the same doubles). Unordered.
   */
  match(phraseTerms: readonly string[], join: 'and' | 'or'): IndexMatch[] {
    const { docs, scores } = this.scored(phraseTerms, join);
    return Array.from(docs, (d, i) => ({ textId: this.docIds[d]!, score: scores[i]! }));
  }

  /**
   * The best matches, best first: at least the `want` best and every match
   * scoring as well as the last of them (or all).
   */
  best(phraseTerms: readonly string[], join: 'and' | 'or', want: number): IndexMatch[] {
    const { docs, scores } = this.scored(phraseTerms, join);
    let cut = Infinity;
    // many matches: only those scoring as well as the want-th best (numeric sort of the bare scores)
    if (docs.length > 4 * want + 64) cut = scores.slice().sort()[Math.max(1, want) - 1]!;
    const out: IndexMatch[] = [];
    for (let i = 0; i < docs.length; i++) if (scores[i]! <= cut) out.push({ textId: this.docIds[docs[i]!]!, score: scores[i]! });
    return out.sort((a, b) => a.score - b.score);
  }

  /** Matching docs (indexes) and their bm25 scores, in doc order. */
  private scored(phraseTerms: readonly string[], join: 'and' | 'or'): { docs: Int32Array; scores: Float64Array } {
    const ts = phraseTerms.map((p) => this.termIds.get(p) ?? -1);
    const present = ts.filter((t) => t >= 0);
    if (present.length === 0 || (join === 'and' && present.length < ts.length)) return { docs: new Int32Array(0), scores: new Float64Array(0) };
    let docs: Int32Array;
    if (present.every((t) => t === present[0])) {
      // one term (maybe repeated): its postings
      docs = this.postDoc.subarray(this.postStart[present[0]!]!, this.postStart[present[0]! + 1]!);
    } else if (join === 'and') {
      // the rarest term's texts, kept when every other term is there too
      let rare = present[0]!;
      for (const t of present) if (this.hits(t) < this.hits(rare)) rare = t;
      const out: number[] = [];
      for (let k = this.postStart[rare]!; k < this.postStart[rare + 1]!; k++) {
        const d = this.postDoc[k]!;
        if (present.every((t) => t === rare || this.tf(t, d) > 0)) out.push(d);
      }
      docs = Int32Array.from(out);
    } else {
      const set = new Set<number>();
      for (const t of present) for (let k = this.postStart[t]!; k < this.postStart[t + 1]!; k++) set.add(this.postDoc[k]!);
      docs = Int32Array.from(set).sort();
    }
    const idf = ts.map((t) => (t >= 0 ? this.idf(this.hits(t)) : 0));
    const scores = new Float64Array(docs.length);
    for (let j = 0; j < docs.length; j++) {
      const d = docs[j]!;
      const D = this.docStart[d + 1]! - this.docStart[d]!;
      let score = 0.0;
      for (let i = 0; i < ts.length; i++) {
        const t = ts[i]!;
        if (t < 0) continue; // frequency 0 adds exactly 0
        const f = this.tf(t, d);
        score += idf[i]! * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * D) / this.avgdl)));
      }
      scores[j] = -1.0 * score;
    }
    return { docs, scores };
  }

  private hits(t: number): number {
    return this.postStart[t + 1]! - this.postStart[t]!;
  }

  private spansOf(d: number): Uint16Array | Uint32Array {
    return this.docSpans.subarray(2 * this.docStart[d]!, 2 * this.docStart[d + 1]!);
  }

  /** Phrase instances of a text, ordered as FTS5's xInst gives them (by token, then phrase): [phrase0, offset0, ...]. */
  private instances(d: number, phraseTerms: readonly string[]): number[] {
    const ts = phraseTerms.map((p) => this.termIds.get(p) ?? -1);
    const out: number[] = [];
    const s = this.docStart[d]!;
    const n = this.docStart[d + 1]! - s;
    for (let o = 0; o < n; o++) {
      const t = this.docTerms[s + o]!;
      for (let i = 0; i < ts.length; i++) if (ts[i] === t) out.push(i, o);
    }
    return out;
  }

  /** FTS5 snippet(f, 0, open, close, ellipsis, nToken) of a matching text; null for a text not indexed. */
  snippet(textId: number, phraseTerms: readonly string[], open: string, close: string, ellipsis: string, nToken: number): string | null {
    const d = this.docIndex.get(textId);
    if (d === undefined) return null;
    const text = this.bodies[d]!;
    const spans = this.spansOf(d);
    const nDocsize = spans.length / 2;
    const inst = this.instances(d, phraseTerms);
    const nPhrase = phraseTerms.length;
    // fts5SentenceFinderCb: tokens that start a sentence
    const first: number[] = [];
    for (let pos = 0; pos < nDocsize; pos++) {
      if (pos === 0) {
        first.push(0);
        continue;
      }
      const startOff = spans[2 * pos]!;
      let i = startOff - 1;
      let c = 0;
      for (; i >= 0; i--) {
        c = text.charCodeAt(i);
        if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
      }
      if (i !== startOff - 1 && (c === 46 || c === 58)) first.push(pos);
    }
    // fts5SnippetScore
    const seen = new Uint8Array(nPhrase);
    let iAdj = 0;
    const score = (iPos: number, adjust: boolean): number => {
      seen.fill(0);
      let nScore = 0;
      let iFirst = -1;
      let iLast = 0;
      const iEnd = iPos + nToken;
      for (let j = 0; j < inst.length; j += 2) {
        const io = inst[j + 1]!;
        if (io >= iPos && io < iEnd) {
          const ip = inst[j]!;
          nScore += seen[ip] ? 1 : 1000;
          seen[ip] = 1;
          if (iFirst < 0) iFirst = io;
          iLast = io + 1;
        }
      }
      if (adjust) {
        // C integer division truncates toward zero
        iAdj = iFirst - Math.trunc((nToken - (iLast - iFirst)) / 2);
        if (iAdj + nToken > nDocsize) iAdj = nDocsize - nToken;
        if (iAdj < 0) iAdj = 0;
      }
      return nScore;
    };
    let bestStart = 0;
    let bestScore = 0;
    for (let j = 0; j < inst.length; j += 2) {
      const io = inst[j + 1]!;
      const s = score(io, true);
      if (s > bestScore) {
        bestScore = s;
        bestStart = iAdj;
      }
      if (first.length > 0 && nDocsize > nToken) {
        let jj = 0;
        for (; jj < first.length - 1; jj++) if (first[jj + 1]! > io) break;
        if (first[jj]! < io) {
          const s2 = score(first[jj]!, false) + (first[jj] === 0 ? 120 : 100);
          if (s2 > bestScore) {
            bestScore = s2;
            bestStart = first[jj]!;
          }
        }
      }
    }
    return highlightRange(text, spans, inst, open, close, bestStart, bestStart + nToken - 1, ellipsis);
  }

  /** FTS5 highlight(f, 0, open, close) of a matching text; null for a text not indexed. */
  highlight(textId: number, phraseTerms: readonly string[], open: string, close: string): string | null {
    const d = this.docIndex.get(textId);
    if (d === undefined) return null;
    return highlightRange(this.bodies[d]!, this.spansOf(d), this.instances(d, phraseTerms), open, close, 0, -1, '');
  }
}

/**
 * fts5HighlightCb over every token, with the coalesced-instance iterator
 * (phrases of one token), as snippet() (a token range and ellipses) and
 * highlight() (rangeEnd -1: the whole text) run it.
 */
function highlightRange(
  text: string,
  spans: ArrayLike<number>,
  inst: readonly number[],
  open: string,
  close: string,
  rangeStart: number,
  rangeEnd: number,
  ellipsis: string,
): string {
  let iInst = 0;
  let iterStart = -1;
  let iterEnd = -1;
  const next = () => {
    iterStart = -1;
    iterEnd = -1;
    while (iInst < inst.length) {
      const io = inst[iInst + 1]!;
      const e = io; // io - 1 + phrase size (1)
      if (iterStart < 0) {
        iterStart = io;
        iterEnd = e;
      } else if (io <= iterEnd) {
        if (e > iterEnd) iterEnd = e;
      } else break;
      iInst += 2;
    }
  };
  next();
  let out = '';
  const snippet = rangeEnd >= 0;
  if (snippet) {
    if (rangeStart > 0) out += ellipsis;
    while (iterStart >= 0 && iterStart < rangeStart) next();
  }
  let iOff = 0;
  let bOpen = false;
  const nTok = spans.length / 2;
  for (let iPos = 0; iPos < nTok; iPos++) {
    const startOff = spans[2 * iPos]!;
    const endOff = spans[2 * iPos + 1]!;
    if (snippet) {
      if (iPos < rangeStart || iPos > rangeEnd) continue;
      if (rangeStart && iPos === rangeStart) iOff = startOff;
    }
    if (bOpen && (iPos <= iterStart || iterStart < 0) && startOff > iOff) {
      out += close;
      bOpen = false;
    }
    if (iPos === iterStart && !bOpen) {
      out += text.slice(iOff, startOff) + open;
      iOff = startOff;
      bOpen = true;
    }
    if (iPos === iterEnd) {
      if (!bOpen) {
        out += open;
        bOpen = true;
      }
      out += text.slice(iOff, endOff);
      iOff = endOff;
      next();
    }
    if (iPos === rangeEnd) {
      if (bOpen) {
        if (iterStart >= 0 && iPos >= iterStart) {
          out += text.slice(iOff, endOff);
          iOff = endOff;
        }
        out += close;
        bOpen = false;
      }
      out += text.slice(iOff, endOff);
      iOff = endOff;
    }
  }
  if (bOpen) out += close;
  if (!snippet || rangeEnd >= nTok - 1) out += text.slice(iOff);
  else out += ellipsis;
  return out;
}
