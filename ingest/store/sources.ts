import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, realpathSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { IngestError } from '../parse/IngestError.js';
import type { DocumentFamily } from '../../src/core/types.js';

/** One file of a known edition, as an archive holds it. */
export interface ManifestFile {
  /** Path relative to the archive root, e.g. "mtg-cr/CR-2003-03-15.txt". */
  path: string;
  sha256: string;
  /** Date in the archive's file name (an upload label, not always the edition). */
  labelDate: string | null;
}

/** One known edition in data/sources.json. */
export interface ManifestEdition {
  family: DocumentFamily;
  effectiveDate: string;
  setCode: string | null;
  setName: string | null;
  /** Official (and archived) download addresses of the text file, best first. */
  urls: string[];
  /** Official (and archived) download addresses of the other formats, by extension (docx, doc, pdf, rtf). */
  downloads?: Record<string, string[]>;
  files: ManifestFile[];
}

/** The sources manifest: every known edition and where to get it. */
export interface Manifest {
  note: string;
  editions: ManifestEdition[];
}

/** An input to ingest: a local file or an http(s) URL. */
export interface InputRef {
  kind: 'file' | 'url';
  /** File path as given (resolved) or URL. */
  location: string;
  /** Expected sha256 (from the manifest), when known. */
  sha256?: string;
  /** Where a download is kept once fetched. */
  cacheFile?: string;
  /** Why it cannot be read, found when it was listed (a dangling symbolic link, say): reading it rejects it with this reason. */
  problem?: string;
}

/** A read input: its bytes and what the transport said about it. */
export interface LoadedInput {
  ref: InputRef;
  bytes: Buffer;
  sha256: string;
  contentType: string | null;
}

/** Largest input accepted, in bytes. */
const MAX_INPUT_BYTES = 20 * 1024 * 1024;

const SKIP_IN_FOLDERS = /^(readme(\..*)?|url\.txt|.*\.json|\..*)$/i;
const CANDIDATE_EXT = /\.(txt|text|md|markdown|html?|xhtml|docx?)$/i;

/** Expands paths and URLs given on the command line (folders walked recursively); unusable ones are listed with their problem. */
export function expandInputs(args: string[]): InputRef[] {
  const out: InputRef[] = [];
  for (const arg of args) {
    if (/^https?:\/\//i.test(arg)) {
      out.push({ kind: 'url', location: arg });
      continue;
    }
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(arg)) {
      out.push({ kind: 'url', location: arg, problem: 'unsupported URL scheme (only http and https)' });
      continue;
    }
    const abs = resolve(arg);
    const st = statOrProblem(abs);
    if (typeof st === 'string') out.push({ kind: 'file', location: abs, problem: st });
    else if (st.isDirectory()) out.push(...walk(abs, [realpathSync(abs)]));
    else out.push({ kind: 'file', location: abs });
  }
  return out;
}

/** Candidate files under `dir`; `ancestors` are the real paths of the folders being walked, to notice link loops. */
function walk(dir: string, ancestors: string[]): InputRef[] {
  const out: InputRef[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch (e) {
    return [{ kind: 'file', location: dir, problem: `cannot read the folder: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` }];
  }
  for (const name of names) {
    if (SKIP_IN_FOLDERS.test(name)) continue;
    const p = join(dir, name);
    const st = statOrProblem(p);
    if (typeof st === 'string') {
      out.push({ kind: 'file', location: p, problem: st });
    } else if (st.isDirectory()) {
      const real = realpathSync(p);
      if (ancestors.includes(real)) out.push({ kind: 'file', location: p, problem: `symbolic link loop: leads back to ${real}` });
      else out.push(...walk(p, [...ancestors, real]));
    } else if (st.isFile() && (CANDIDATE_EXT.test(name) || /\.pdf$/i.test(name))) {
      out.push({ kind: 'file', location: p });
    }
  }
  return out;
}

/** What a path is, or why it cannot be read (said of the path as given, symbolic links included). */
function statOrProblem(path: string): Stats | string {
  try {
    return statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return 'symbolic link loop';
    let link: string | null = null;
    try {
      link = lstatSync(path).isSymbolicLink() ? readlinkSync(path) : null;
    } catch {
      // not there at all
    }
    if (code === 'ENOENT') return link === null ? 'no such file or folder' : `dangling symbolic link (to ${link}, which does not exist)`;
    return `cannot read: ${code ?? (e as Error).message}`;
  }
}

/** The date in an archive file name ("CR-2003-03-15.txt", "2003-03-15.txt"), or null. */
export function labelDateOf(location: string): string | null {
  const m = /(\d{4}-\d{2}-\d{2})(?!.*\d{4}-\d{2}-\d{2})/.exec(basename(location));
  return m ? m[1]! : null;
}

/** The date a complete document is filed under: the effective date it states, else its file name's, else null. */
export function editionDateOf(location: string, effectiveDate: string | null): string | null {
  return effectiveDate ?? labelDateOf(location);
}

/** sha256 of bytes, hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Reads the manifest file. */
export function readManifest(file: string): Manifest {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch {
    throw new IngestError(file, 'cannot read the sources manifest');
  }
  try {
    const m = JSON.parse(raw) as Manifest;
    if (!Array.isArray(m.editions)) throw new Error('no editions array');
    return m;
  } catch (e) {
    throw new IngestError(file, `invalid sources manifest: ${(e as Error).message}`);
  }
}

/** What walking the manifest found: inputs to read, and editions with no copy to be had. */
export interface ManifestPlan {
  inputs: InputRef[];
  unavailable: Array<{ effectiveDate: string; reason: string }>;
}

/**
 * Plans inputs from the manifest: local copies under `archiveDir` first; with
 * `fetch`, the first download address of each edition that has no local copy
 * (cached under `cacheDir`). Editions that cannot be had are listed, not fatal.
 */
export function planFromManifest(manifest: Manifest, archiveDir: string | null, opts: { fetch: boolean; cacheDir: string }): ManifestPlan {
  const inputs: InputRef[] = [];
  const unavailable: ManifestPlan['unavailable'] = [];
  for (const ed of manifest.editions) {
    const local = archiveDir
      ? ed.files
          .filter((f) => existsSync(join(archiveDir, f.path)))
          .map((f): InputRef => ({ kind: 'file', location: join(archiveDir, f.path), sha256: f.sha256 }))
      : [];
    if (local.length > 0) {
      inputs.push(...local);
      continue;
    }
    const cached = cachePath(opts.cacheDir, ed);
    // an edition published with no text file (2023-02-03) is fetched as its Word document
    const url = ed.urls[0] ?? ed.downloads?.docx?.[0];
    if (existsSync(cached)) {
      inputs.push({ kind: 'file', location: cached, ...shaOf(ed) });
    } else if (opts.fetch && url !== undefined) {
      inputs.push({ kind: 'url', location: url, cacheFile: cached, ...shaOf(ed) });
    } else {
      unavailable.push({
        effectiveDate: ed.effectiveDate,
        reason: url === undefined ? 'no local copy and no known download address' : 'no local copy (use --fetch to download)',
      });
    }
  }
  return { inputs, unavailable };
}

function shaOf(ed: ManifestEdition): { sha256?: string } {
  return ed.files.length === 1 ? { sha256: ed.files[0]!.sha256 } : {};
}

/** Where a fetched edition is cached. */
function cachePath(cacheDir: string, ed: Pick<ManifestEdition, 'family' | 'effectiveDate'>): string {
  return join(cacheDir, `${ed.family}-${ed.effectiveDate}.txt`);
}

/** Reads a local input, refusing folders, oversized and unreadable files with a reason. */
export function readLocalInput(ref: InputRef): LoadedInput {
  if (ref.problem) throw new IngestError(ref.location, ref.problem);
  let bytes: Buffer;
  try {
    const st = statSync(ref.location);
    if (st.size > MAX_INPUT_BYTES) {
      throw new IngestError(ref.location, `too large: ${st.size} bytes (limit ${MAX_INPUT_BYTES} bytes)`);
    }
    bytes = readFileSync(ref.location);
  } catch (e) {
    if (e instanceof IngestError) throw e;
    throw new IngestError(ref.location, `cannot read: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return { ref, bytes, sha256: sha256Hex(bytes), contentType: null };
}

/** How long a download may go without receiving a byte before it is given up, by default. */
export const DEFAULT_DOWNLOAD_TIMEOUT_MS = 30_000;

/** Downloads a URL (size-limited, given up after `idleMs` without data), caching the body under `ref.cacheFile` when set. */
export async function fetchInput(ref: InputRef, idleMs = DEFAULT_DOWNLOAD_TIMEOUT_MS): Promise<LoadedInput> {
  if (ref.problem) throw new IngestError(ref.location, ref.problem);
  const cacheFile = ref.cacheFile;
  const controller = new AbortController();
  let stalled = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      controller.abort();
    }, idleMs);
  };
  const chunks: Buffer[] = [];
  let total = 0;
  let res: Response;
  arm();
  try {
    try {
      res = await fetch(ref.location, { redirect: 'follow', signal: controller.signal });
    } catch (e) {
      if (stalled) throw new IngestError(ref.location, `download stalled: no response for ${idleMs / 1000} s`);
      throw new IngestError(ref.location, `download failed: ${(e as Error).cause ? String((e as Error).cause) : (e as Error).message}`);
    }
    arm();
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw new IngestError(ref.location, `download failed: HTTP ${res.status} ${res.statusText}`);
    }
    const declared = Number(res.headers.get('content-length') ?? '0');
    if (declared > MAX_INPUT_BYTES) {
      await res.body?.cancel().catch(() => {});
      throw new IngestError(ref.location, `too large: ${declared} bytes (limit ${MAX_INPUT_BYTES} bytes)`);
    }
    const announced = declared > 0 && !res.headers.has('content-encoding') ? ` of the ${declared} announced` : '';
    try {
      if (res.body) {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          arm();
          total += chunk.length;
          if (total > MAX_INPUT_BYTES) {
            throw new IngestError(ref.location, `too large: over ${MAX_INPUT_BYTES} bytes (limit ${MAX_INPUT_BYTES} bytes)`);
          }
          chunks.push(Buffer.from(chunk));
        }
      }
    } catch (e) {
      if (e instanceof IngestError) throw e;
      if (stalled) throw new IngestError(ref.location, `download stalled: no data for ${idleMs / 1000} s after ${total}${announced} bytes`);
      const why = (e as Error).cause instanceof Error ? ((e as Error).cause as Error).message : (e as Error).message;
      throw new IngestError(ref.location, `download ended early: the connection closed after ${total}${announced} bytes (${why})`);
    }
    if (announced && total < declared) {
      throw new IngestError(ref.location, `download ended early: the connection closed after ${total}${announced} bytes`);
    }
  } finally {
    clearTimeout(timer);
  }
  const bytes = Buffer.concat(chunks);
  const sha256 = sha256Hex(bytes);
  if (ref.sha256 && ref.sha256 !== sha256) {
    throw new IngestError(ref.location, `checksum mismatch: expected sha256 ${ref.sha256}, got ${sha256}`);
  }
  if (cacheFile) {
    mkdirSync(resolve(cacheFile, '..'), { recursive: true });
    writeFileSync(cacheFile, bytes);
  }
  return { ref, bytes, sha256, contentType: res.headers.get('content-type') };
}

/** A manifest path relative to the archive root, with forward slashes. */
export function archiveRelative(archiveDir: string, file: string): string {
  return relative(archiveDir, file).split('\\').join('/');
}
