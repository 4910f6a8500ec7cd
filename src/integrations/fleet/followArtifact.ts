import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { parseArtifactManifest, type ArtifactManifest } from './artifactManifest.js';

/** Options of followArtifact. */
export interface FollowOptions {
  /** URL of current.json (crkb publish); the artifact is fetched from beside it. */
  url: string;
  /** The database file served: a new artifact is renamed over it (the supervisor reloads a replaced file). */
  file: string;
  /** Why crkb would not serve a database file (as openVerifiedDb checks it), or null when it would. */
  refusal(file: string): string | null;
  /** One line per event worth telling (a new artifact, a failure). */
  log(line: string): void;
  /** Called after a new artifact replaced the file. */
  onUpdated?(m: ArtifactManifest): void;
  /** Called when current.json (a 200, not a 304) names the artifact the file already holds. */
  onCurrent?(m: ArtifactManifest): void;
  /** Time allowed for the manifest (default 30 s) and for the artifact (default 10 min). */
  manifestTimeoutMs?: number;
  downloadTimeoutMs?: number;
}

/** What one poll did. */
export type PollResult = 'unchanged' | 'updated' | 'failed';

/** sha256 of a file's bytes, or null when it does not exist. */
async function fileSha256(file: string): Promise<string | null> {
  if (!existsSync(file)) return null;
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Follows a published database artifact: each poll() asks for current.json with If-None-Match
 * (a 304 costs nothing), and when it names another sha256, downloads that artifact beside the served
 * file, checks its size, sha256 and that crkb would serve it (refusal), then renames it over
 * the file. Anything failing leaves the file as it was (the old database stays served) and is tried
 * again at the next poll.
 */
export function followArtifact(opts: FollowOptions): { poll(): Promise<PollResult> } {
  let etag: string | null = null;
  let have: Promise<string | null> | null = null;
  const manifestMs = opts.manifestTimeoutMs ?? 30_000;
  const downloadMs = opts.downloadTimeoutMs ?? 600_000;
  return {
    async poll() {
      const tmp = `${opts.file}.download-${process.pid}`;
      try {
        const r = await fetch(opts.url, { headers: etag ? { 'if-none-match': etag } : {}, signal: AbortSignal.timeout(manifestMs) });
        if (r.status === 304) return 'unchanged';
        if (r.status !== 200) throw new Error(`${opts.url}: HTTP ${r.status}`);
        const m = parseArtifactManifest(await r.text(), opts.url);
        const newEtag = r.headers.get('etag');
        have ??= fileSha256(opts.file);
        if (m.sha256 === (await have)) {
          etag = newEtag;
          opts.onCurrent?.(m);
          return 'unchanged';
        }
        const artifactUrl = new URL(m.file, opts.url).href;
        const a = await fetch(artifactUrl, { signal: AbortSignal.timeout(downloadMs) });
        if (a.status !== 200 || !a.body) throw new Error(`${artifactUrl}: HTTP ${a.status}`);
        const hash = createHash('sha256');
        let size = 0;
        const tee = new Transform({
          transform(chunk: Buffer, _enc, done) {
            hash.update(chunk);
            size += chunk.length;
            if (size > m.size) done(new Error(`${artifactUrl}: more than the ${m.size} bytes current.json announces`));
            else done(null, chunk);
          },
        });
        await pipeline(Readable.fromWeb(a.body as WebReadableStream), tee, createWriteStream(tmp));
        const got = hash.digest('hex');
        if (size !== m.size) throw new Error(`${artifactUrl}: ${size} bytes, current.json announces ${m.size}`);
        if (got !== m.sha256) throw new Error(`${artifactUrl}: sha256 ${got}, current.json announces ${m.sha256}`);
        const refused = opts.refusal(tmp);
        if (refused !== null) throw new Error(`${artifactUrl}: ${refused}`);
        renameSync(tmp, opts.file);
        have = Promise.resolve(m.sha256);
        etag = newEtag;
        opts.log(`crkb: new database ${m.sha256.slice(0, 12)} from ${artifactUrl} (${m.editions} editions, newest ${m.newestEdition}): ${opts.file}`);
        opts.onUpdated?.(m);
        return 'updated';
      } catch (e) {
        have = null;
        opts.log(`crkb: following ${opts.url}: ${(e as Error).message}; still serving the database we have`);
        return 'failed';
      } finally {
        rmSync(tmp, { force: true });
      }
    },
  };
}
