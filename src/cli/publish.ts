import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, writeSync, mkdirSync, existsSync, statSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectRoot } from '../core/projectFiles.js';
import { DbRefused } from '../db/openVerifiedDb.js';
import { artifactName, type ArtifactManifest } from '../integrations/fleet/artifactManifest.js';
import type { PublishDestination } from '../integrations/fleet/s3Destination.js';
import { KnowledgeBase } from '../query/KnowledgeBase.js';
import { parseOptions } from './options.js';
import { UsageError } from './UsageError.js';
import { existingDbFile } from './withKb.js';

export const usage = `Usage: crkb publish --to DIR|s3://BUCKET[/PREFIX] [--db FILE]

Publishes the database as an immutable, content-addressed artifact for a fleet
of replicas (crkb serve --db-url URL/current.json): checks it as serve does,
writes DIR/crkb-<sha256>.db (kept if already there) and then DIR/current.json
(sha256, file, size, editions, newestEdition, builtAt, crkbVersion), each to a
temporary file renamed into place, current.json last: a reader never sees a
manifest naming a file not yet complete. Serve DIR with any static HTTP server
or CDN; older artifacts stay until removed.

--to s3://BUCKET/PREFIX writes the same two objects to S3 (the artifact first,
Cache-Control immutable; current.json no-cache) with the AWS SDK's credentials
and region (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, profiles);
CRKB_S3_ENDPOINT names an S3-compatible store (path-style addresses).`;

/** Copies the verified bytes (a descriptor of the checked file) to dest atomically: a temporary file, fsync, rename. */
function copyAtomically(fd: number, size: number, dest: string): void {
  const tmp = `${dest}.tmp-${process.pid}`;
  const out = openSync(tmp, 'w');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    for (let pos = 0; pos < size;) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, size - pos), pos);
      if (n === 0) throw new Error(`the database ended at byte ${pos} of ${size} while it was copied`);
      writeSync(out, buf, 0, n);
      pos += n;
    }
    fsyncSync(out);
  } catch (e) {
    closeSync(out);
    rmSync(tmp, { force: true });
    throw e;
  }
  closeSync(out);
  renameSync(tmp, dest);
}

/** Writes text to dest atomically. */
function writeAtomically(dest: string, text: string): void {
  const tmp = `${dest}.tmp-${process.pid}`;
  const out = openSync(tmp, 'w');
  try {
    writeSync(out, text);
    fsyncSync(out);
  } finally {
    closeSync(out);
  }
  renameSync(tmp, dest);
}

/** A folder: each file written to a temporary file, fsynced and renamed into place. */
function folderDestination(dir: string): PublishDestination {
  return {
    where: `${dir}/`,
    has: (name, size) => Promise.resolve(existsSync(join(dir, name)) && statSync(join(dir, name)).size === size),
    putFile(name, fd, size) {
      mkdirSync(dir, { recursive: true });
      copyAtomically(fd, size, join(dir, name));
      return Promise.resolve();
    },
    putManifest(text) {
      writeAtomically(join(dir, 'current.json'), text);
      return Promise.resolve();
    },
  };
}

/** `crkb publish`: write the database artifact and current.json to a folder or an S3 bucket. */
export async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { db: { type: 'string' }, to: { type: 'string' } }, usage, false);
  if (!values.to) throw new UsageError('--to DIR is required (the folder to publish into)', usage);
  let dest: PublishDestination;
  if (values.to.startsWith('s3://')) {
    const { parseS3Url, s3Destination } = await import('../integrations/fleet/s3Destination.js');
    const s3 = parseS3Url(values.to);
    if (!s3)
      throw new UsageError(
        `--to ${values.to}: expected s3://BUCKET or s3://BUCKET/PREFIX (a bucket name of 3-63 lowercase letters, digits, dots, hyphens)`,
        usage,
      );
    dest = s3Destination(s3.bucket, s3.prefix);
  } else {
    const dir = resolve(values.to);
    if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`--to ${values.to} is not a folder`, usage);
    dest = folderDestination(dir);
  }
  const file = existingDbFile(values.db, usage);
  let kb: KnowledgeBase;
  try {
    kb = KnowledgeBase.openVerified(file, {});
  } catch (e) {
    if (!(e instanceof DbRefused)) throw e;
    console.error(`crkb publish: ${e.message}`);
    return 1;
  }
  try {
    const held = kb.file!;
    const editions = kb.editionSummaries('cr');
    const name = artifactName(held.sha256);
    const had = await dest.has(name, held.size);
    if (!had) await dest.putFile(name, held.fd, held.size);
    const manifest: ArtifactManifest = {
      sha256: held.sha256,
      file: name,
      size: held.size,
      editions: editions.length,
      newestEdition: editions.at(-1)?.effectiveDate ?? null,
      builtAt: new Date(held.mtimeMs).toISOString(),
      crkbVersion: (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version,
    };
    await dest.putManifest(JSON.stringify(manifest, null, 2) + '\n');
    console.log(
      `crkb publish: ${dest.where}${name}${had ? ' (already there)' : ''}, current.json -> ${held.sha256.slice(0, 12)} (${manifest.editions} editions, newest ${manifest.newestEdition})`,
    );
    return 0;
  } finally {
    kb.close();
  }
}
