import { createReadStream } from 'node:fs';
import { HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

/** Where `crkb publish` writes: an artifact (kept when already there: it is immutable) and then current.json. */
export interface PublishDestination {
  /** Where it is, for messages (ends with a slash). */
  where: string;
  /** True when name is already there with this size (content-addressed: the same bytes). */
  has(name: string, size: number): Promise<boolean>;
  /** Writes size bytes of an open file (the verified database) as name. */
  putFile(name: string, fd: number, size: number): Promise<void>;
  /** Writes current.json. */
  putManifest(text: string): Promise<void>;
}

/** Parses `s3://BUCKET[/PREFIX]`, or returns null when it is not one. */
export function parseS3Url(to: string): { bucket: string; prefix: string } | null {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(to);
  if (!m) return null;
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { bucket: m[1]!, prefix: prefix ? `${prefix}/` : '' };
}

/**
 * An S3 bucket, or any S3-compatible store ($CRKB_S3_ENDPOINT, path-style), through @aws-sdk/client-s3 with
 * the SDK's own credential and region chain (AWS_ACCESS_KEY_ID…, AWS_REGION, profiles, roles; us-east-1 when
 * no region is set). The artifact is stored `immutable`, current.json `no-cache` (revalidated by its ETag).
 */
export function s3Destination(bucket: string, prefix: string): PublishDestination {
  const endpoint = process.env.CRKB_S3_ENDPOINT;
  const client = new S3Client({
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    region: process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
    // checksums only where S3 requires them: not every S3-compatible store takes the SDK's streamed trailers
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  const key = (name: string): string => `${prefix}${name}`;
  return {
    where: `s3://${bucket}/${prefix}`,
    async has(name, size) {
      // a missing bucket said before 33 MB are streamed at it (the store may close the socket mid-upload: EPIPE)
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch (e) {
        if (statusOf(e) === 404) throw new Error(`s3://${bucket}: the bucket does not exist`);
        // 403 (no s3:ListBucket right) says nothing about the bucket: the upload will tell
        if (statusOf(e) !== 403) throw e;
      }
      try {
        return (await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key(name) }))).ContentLength === size;
      } catch (e) {
        if (statusOf(e) === 404) return false;
        throw e;
      }
    },
    async putFile(name, fd, size) {
      const body = createReadStream('', { fd, start: 0, end: size - 1, autoClose: false });
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: key(name),
          Body: body,
          ContentLength: size,
          ContentType: 'application/vnd.sqlite3',
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    },
    async putManifest(text) {
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: key('current.json'), Body: text, ContentType: 'application/json', CacheControl: 'no-cache' }),
      );
    },
  };
}

function statusOf(e: unknown): number | undefined {
  return (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}
