/**
 * Where one edition shows each of its texts (as a rule's text, as one of its examples, as a glossary
 * definition), as typed arrays: a search reads the places of two dozen texts, each found by a binary
 * search here rather than through the archive's versions (several lookups and arrays a text).
 * Place j of a text: `pos[j]` >= 0 a rule's position, with `example[j]` -1 (its text) or the example's
 * index; `pos[j]` < 0 the glossary entry of order -1 - pos[j].
 */
export class TextPlaces {
  /** The edition's text ids, ascending, each once. */
  readonly texts: Int32Array;
  /** Places of texts[k]: start[k] up to start[k + 1]. */
  readonly start: Int32Array;
  readonly pos: Int32Array;
  readonly example: Int32Array;

  /**
   * `rules`: text id and example text ids of the rule at each position; `glossary`: the definition
   * text id of each glossary entry, in order.
   */
  constructor(rules: Iterable<[textId: number, exampleIds: readonly number[]]>, glossary: ArrayLike<number>) {
    // one key a place: text id, then the place's order (rule texts, examples, glossary entries), sorted natively
    const keys: number[] = [];
    let pos = 0;
    for (const [textId, examples] of rules) {
      if (examples.length > 62) throw new Error(`a rule at position ${pos} has ${examples.length} examples: more than TextPlaces keeps (62)`);
      keys.push(textId * PLACES + pos * 64);
      for (let i = 0; i < examples.length; i++) keys.push(examples[i]! * PLACES + pos * 64 + 1 + i);
      pos++;
    }
    for (let ord = 0; ord < glossary.length; ord++) keys.push(glossary[ord]! * PLACES + GLOSSARY + ord);
    const sorted = Float64Array.from(keys).sort();
    const texts: number[] = [];
    const start: number[] = [];
    this.pos = new Int32Array(sorted.length);
    this.example = new Int32Array(sorted.length);
    for (let j = 0; j < sorted.length; j++) {
      const key = sorted[j]!;
      const textId = Math.floor(key / PLACES);
      if (texts.length === 0 || texts[texts.length - 1] !== textId) {
        texts.push(textId);
        start.push(j);
      }
      const place = key % PLACES;
      if (place >= GLOSSARY) {
        this.pos[j] = -1 - (place - GLOSSARY);
        this.example[j] = -1;
      } else {
        this.pos[j] = Math.floor(place / 64);
        this.example[j] = (place % 64) - 1;
      }
    }
    start.push(sorted.length);
    this.texts = Int32Array.from(texts);
    this.start = Int32Array.from(start);
  }

  /** The index k of a text (its places: start[k] up to start[k + 1]), or -1 when the edition does not show it. */
  find(textId: number): number {
    const t = this.texts;
    let lo = 0;
    let hi = t.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = t[mid]!;
      if (v < textId) lo = mid + 1;
      else if (v > textId) hi = mid - 1;
      else return mid;
    }
    return -1;
  }

  /** Bytes of the arrays. */
  get bytes(): number {
    return this.texts.byteLength + this.start.byteLength + this.pos.byteLength + this.example.byteLength;
  }
}

/** A place's key within its text: position * 64 + 1 + example index (62 examples a rule at most), glossary entries from GLOSSARY. */
const GLOSSARY = 2 ** 26;
const PLACES = 2 ** 27;
