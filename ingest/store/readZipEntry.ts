import { constants, inflateRawSync } from 'node:zlib';

/** Why a zip archive could not be read; the caller adds the file name. */
export class ZipError extends Error {
  override name = 'ZipError';
}

/** An entry that inflates past the size the caller allows (a zip bomb, or not the document expected). */
export class ZipEntryTooLarge extends ZipError {
  override name = 'ZipEntryTooLarge';
  constructor(
    readonly entry: string,
    readonly limit: number,
  ) {
    super(`${entry} inflates past ${limit / (1024 * 1024)} MB`);
  }
}

/** How much of an entry to read: the first `headBytes` compressed bytes only, and at most `maxBytes` inflated. */
export interface ZipReadOptions {
  headBytes?: number;
  maxBytes: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** The names of a zip archive's entries, from its central directory. */
export function zipEntryNames(bytes: Uint8Array): string[] {
  return centralDirectory(bytes).map((e) => e.name);
}

/**
 * One entry of a zip archive, inflated (only what its first `headBytes` compressed bytes hold, if
 * given); null when the archive has no such entry. Throws ZipEntryTooLarge as soon as the inflated
 * bytes pass `maxBytes` (nothing past it is inflated), and ZipError when the archive is truncated
 * or damaged (no central directory, an entry cut short, bad data).
 */
export function readZipEntry(bytes: Uint8Array, name: string, { headBytes = Infinity, maxBytes }: ZipReadOptions): Buffer | null {
  const entry = centralDirectory(bytes).find((e) => e.name === name);
  if (!entry) return null;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.offset;
  if (at + 30 > buf.length || buf.readUInt32LE(at) !== LOCAL) throw new ZipError(`entry ${name} is missing (truncated or damaged archive)`);
  const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > buf.length) throw new ZipError(`entry ${name} is cut short (truncated archive)`);
  const data = buf.subarray(start, Math.min(end, start + headBytes));
  if (entry.method === 0) {
    if (data.length > maxBytes) throw new ZipEntryTooLarge(name, maxBytes);
    return Buffer.from(data);
  }
  if (entry.method !== 8) throw new ZipError(`entry ${name} uses unsupported compression method ${entry.method}`);
  if (entry.flags & 1) throw new ZipError(`entry ${name} is encrypted`);
  try {
    // a head only: what the first bytes inflate to, without the end of the stream; zlib stops
    // inflating (and throws) as soon as the output would pass maxOutputLength
    return inflateRawSync(data, { maxOutputLength: maxBytes, ...(data.length < end - start ? { finishFlush: constants.Z_SYNC_FLUSH } : {}) });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new ZipEntryTooLarge(name, maxBytes);
    throw new ZipError(`entry ${name} cannot be inflated (${(e as Error).message})`);
  }
}

interface Entry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  offset: number;
}

function centralDirectory(bytes: Uint8Array): Entry[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record sits in the last 22 bytes plus a comment of at most 64 KiB.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipError('no zip central directory (truncated or not a zip archive)');
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries: Entry[] = [];
  for (let k = 0; k < count; k++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL) throw new ZipError('damaged zip central directory');
    const nameLength = buf.readUInt16LE(at + 28);
    entries.push({
      name: buf.toString('utf8', at + 46, at + 46 + nameLength),
      flags: buf.readUInt16LE(at + 8),
      method: buf.readUInt16LE(at + 10),
      compressedSize: buf.readUInt32LE(at + 20),
      offset: buf.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return entries;
}
