// word-extractor reads a Word 97 document as the file states it: it follows sector chains ([MS-CFB])
// until they end and makes a string of every text piece ([MS-DOC] piece table) however the pieces
// overlap. A chain that loops grows an array until V8 aborts the whole process; a 365 KB file whose
// pieces each span the whole text expands to gigabytes. These checks, made before it reads a file,
// hold for every real document: its chains end within the file, and its pieces together hold no more
// text than it stores.

const HEADER = 512;
const DIR_ENTRY = 128;
const MINI_SECTOR = 64;
const ROOT = 5;
const STREAM = 2;

interface DirEntry {
  name: string;
  type: number;
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

class Problem extends Error {}

/** What makes a Word 97 compound file unsafe to hand to word-extractor, or null when nothing does. */
export function wordBinaryProblem(bytes: Uint8Array): string | null {
  try {
    check(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    return null;
  } catch (e) {
    if (e instanceof Problem) return e.message;
    throw e;
  }
}

function check(buf: Buffer): void {
  if (buf.length < HEADER) throw new Problem('the compound file header is cut short');
  const shift = buf.readUInt16LE(30);
  if (shift !== 9 && shift !== 12) throw new Problem(`unsupported sector size 2^${shift}`);
  if (buf.readUInt16LE(32) !== 6) throw new Problem(`unsupported mini sector size 2^${buf.readUInt16LE(32)}`);
  const size = 1 << shift;
  // the header fills the sector before sector 0
  const sectors = Math.ceil(buf.length / size) - 1;
  const count = (at: number, what: string): number => {
    const n = buf.readInt32LE(at);
    if (n < 0 || n > sectors) throw new Problem(`the header counts ${n} ${what} sectors in a file of ${sectors} sectors`);
    return n;
  };
  const satSectors = count(44, 'allocation table');
  const ssatSectors = count(64, 'mini allocation table');
  const msatSectors = count(72, 'master allocation table');

  /** Sector `id`, zero-filled past the end of the file (as word-extractor reads it). */
  const sector = (id: number): Buffer => {
    const out = Buffer.alloc(size);
    if (id >= 0 && id < sectors) buf.copy(out, 0, (id + 1) * size, (id + 2) * size);
    return out;
  };

  // the master table: 109 entries in the header, then a chain of sectors of (size / 4 - 1) entries each
  const msat: number[] = [];
  for (let i = 0; i < Math.min(109, satSectors); i++) msat.push(buf.readInt32LE(76 + 4 * i));
  const seen = new Set<number>();
  for (let k = 0, id = buf.readInt32LE(68); k < msatSectors && msat.length < satSectors; k++) {
    if (id < 0 || id >= sectors || seen.has(id)) throw new Problem('the master allocation table chain is broken or loops');
    seen.add(id);
    const s = sector(id);
    for (let j = 0; j < size / 4 - 1 && msat.length < satSectors; j++) msat.push(s.readInt32LE(4 * j));
    id = s.readInt32LE(size - 4);
  }
  if (msat.length < satSectors) throw new Problem('the master allocation table lists fewer sectors than the header counts');
  if (msat.some((id) => id < 0 || id >= sectors)) throw new Problem('the allocation table lies past the end of the file (truncated)');

  const sat = table(Buffer.concat(msat.map(sector)), sectors, 'allocation table');
  const chain = (start: number, what: string): number[] => chainOf(sat, start, what);
  const dirEntries = readDirectory(Buffer.concat(chain(buf.readInt32LE(48), 'directory').map(sector)));
  const root = dirEntries.find((e) => e.type === ROOT);
  if (!root) throw new Problem('the directory has no root entry');
  const miniStream = Buffer.concat(chain(root.start, 'mini stream').map(sector));
  const ssatIds = chain(buf.readInt32LE(60), 'mini allocation table');
  if (ssatIds.length !== ssatSectors) throw new Problem('the mini allocation table is not as long as the header says');
  const ssat = table(Buffer.concat(ssatIds.map(sector)), Math.floor(miniStream.length / MINI_SECTOR), 'mini allocation table');

  const shortMax = buf.readUInt32LE(56);
  const streams = rootStreams(dirEntries, root);
  const read = (name: string): Buffer | null => {
    const e = streams.get(name);
    if (!e) return null;
    const data =
      e.size < shortMax
        ? Buffer.concat(chainOf(ssat, e.start, name).map((id) => miniStream.subarray(id * MINI_SECTOR, (id + 1) * MINI_SECTOR)))
        : Buffer.concat(chain(e.start, name).map(sector));
    return data.subarray(0, e.size);
  };
  const word = read('WordDocument');
  if (!word || word.length < 0x01aa) return; // word-extractor refuses it itself
  const tableStream = read((word.readUInt16LE(0x0a) & 0x0200) !== 0 ? '1Table' : '0Table');
  if (tableStream) checkPieces(word, tableStream);
}

/** An allocation table whose entries point below `limit` (or end a chain), with no chain looping. */
function table(bytes: Buffer, limit: number, what: string): Int32Array {
  const t = new Int32Array(bytes.length / 4);
  for (let i = 0; i < t.length; i++) {
    t[i] = bytes.readInt32LE(4 * i);
    if (t[i]! >= limit) throw new Problem(`the ${what} points past the end of its data`);
  }
  // 0: not visited, 1: on the chain being walked, 2: on a chain that ends
  const state = new Uint8Array(t.length);
  for (let i = 0; i < t.length; i++) {
    let id = i;
    while (id >= 0 && id < t.length && state[id] === 0) {
      state[id] = 1;
      id = t[id]!;
    }
    if (id >= 0 && id < t.length && state[id] === 1) throw new Problem(`a chain of the ${what} loops`);
    for (id = i; id >= 0 && id < t.length && state[id] === 1; id = t[id]!) state[id] = 2;
  }
  return t;
}

/** The sectors of the chain from `start` (which the table check bounds and keeps from looping). */
function chainOf(t: Int32Array, start: number, what: string): number[] {
  const ids: number[] = [];
  for (let id = start; id >= 0; id = id < t.length ? t[id]! : -1) {
    ids.push(id);
    if (ids.length > t.length + 1) throw new Problem(`the ${what} chain loops`);
  }
  return ids;
}

function readDirectory(bytes: Buffer): DirEntry[] {
  const out: DirEntry[] = [];
  for (let at = 0; at + DIR_ENTRY <= bytes.length; at += DIR_ENTRY) {
    const nameLength = Math.max(bytes.readInt16LE(at + 64) - 1, 0);
    out.push({
      name: bytes.toString('utf16le', at, at + nameLength),
      type: bytes.readInt8(at + 66),
      left: bytes.readInt32LE(at + 68),
      right: bytes.readInt32LE(at + 72),
      child: bytes.readInt32LE(at + 76),
      start: bytes.readInt32LE(at + 116),
      size: bytes.readInt32LE(at + 120),
    });
  }
  return out;
}

/** The streams directly under the root, by name, found as word-extractor finds them (the last of a name wins). */
function rootStreams(entries: DirEntry[], root: DirEntry): Map<string, DirEntry> {
  const out = new Map<string, DirEntry>();
  const visited = new Set<number>();
  const stack = root.child >= 0 ? [root.child] : [];
  const order: number[] = [];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const e = entries[id];
    if (!e || visited.has(id)) continue;
    visited.add(id);
    order.push(id);
    if (e.right >= 0) stack.push(e.right);
    if (e.left >= 0) stack.push(e.left);
  }
  for (const id of order) if (entries[id]!.type === STREAM) out.set(entries[id]!.name, entries[id]!);
  return out;
}

/** The pieces of the text (the piece table word-extractor reads) hold no more bytes than the WordDocument stream. */
function checkPieces(word: Buffer, tableStream: Buffer): void {
  let at = word.readUInt32LE(0x01a2);
  // property runs (0x01) come before the piece table (0x02)
  while (at < tableStream.length && tableStream[at] === 1 && at + 3 <= tableStream.length) at += 3 + tableStream.readUInt16LE(at + 1);
  if (at + 5 > tableStream.length || tableStream[at] !== 2) return; // word-extractor refuses it itself
  const pieces = Math.floor((tableStream.readUInt32LE(at + 1) - 4) / 12);
  const cps = at + 5;
  let total = 0;
  for (let x = 0; x < pieces && cps + (pieces + 1) * 4 + x * 8 + 6 <= tableStream.length; x++) {
    const length = tableStream.readUInt32LE(cps + (x + 1) * 4) - tableStream.readUInt32LE(cps + x * 4);
    const fc = tableStream.readUInt32LE(cps + (pieces + 1) * 4 + x * 8 + 2);
    if (length > 0) total += (fc & 0x40000000) === 0 ? 2 * length : length;
    if (total > word.length) throw new Problem(`its text pieces add up to more than the ${word.length} bytes of its text stream`);
  }
}
