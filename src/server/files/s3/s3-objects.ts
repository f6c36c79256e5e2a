// Files in an S3-compatible bucket (AWS S3, MinIO, s3rver...): uploads go up as streams in
// parts (lib-storage), reads come down as streams with an optional byte range. Nothing here
// holds a whole file in memory. Checksums are WHEN_REQUIRED: the SDK's default (always) may send
// uploads aws-chunked with trailing checksums, which S3-compatible servers that do not know that
// encoding can store with the chunk framing inside the object, or refuse.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NotFound,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';

export interface S3Config {
  /** Omitted for AWS itself; e.g. http://minio:9000 otherwise. */
  endpoint?: string;
  bucket: string;
  region: string;
  /** Omitted: the SDK's usual chain (environment, instance role...). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** bucket in the path (MinIO, s3rver) rather than in the host name. */
  forcePathStyle: boolean;
}

export interface ObjectRead {
  body: Readable;
  /** The whole object's size. */
  size: number;
  /** When the object read was stored. */
  modifiedAt: Date;
}

export interface PutOptions {
  contentType?: string;
  /** Called once the last byte has been read from the file, while the server may still be storing it. */
  whenRead?: () => void;
}

export interface ObjectStore {
  /** Stream the file at `localPath` to `key`; resolves once the object is complete. */
  putFile(key: string, localPath: string, opts?: PutOptions): Promise<{ size: number }>;
  /** The object, or bytes start..end (inclusive) of it; undefined when there is none. */
  read(key: string, range?: { start: number; end: number }): Promise<ObjectRead | undefined>;
  /** The object's size and time, or undefined when there is none. */
  head(key: string): Promise<{ size: number; modifiedAt: Date } | undefined>;
  delete(key: string): Promise<void>;
  /** The keys of the objects whose key starts with `prefix` (a non-empty one). */
  list(prefix: string): Promise<string[]>;
  /** Delete every object whose key starts with `prefix`; returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /** Throws unless the bucket answers (for /readyz). */
  ping(): Promise<void>;
  close(): void;
}

/** Parts of 8 MiB, two in flight: an upload holds at most ~16 MiB whatever the file's size. */
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
/**
 * Files up to this size go up in one streamed PutObject. A multipart upload buffers each part to
 * sign it (a SHA-256 per part over plain http) and the server joins the parts at the end: for a
 * 15 MB result through s3rver, 180-200 ms against 75-95 ms for one PUT
 * (docs/decisions/0023-one-put-up-to-64-mib.md).
 * Above it, parts: a failed part is sent again alone, and S3 caps a single PUT at 5 GB.
 */
export const SINGLE_PUT_MAX_BYTES = 64 * 1024 * 1024;

const isMissing = (err: unknown) =>
  err instanceof NotFound ||
  err instanceof NoSuchKey ||
  (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

export function createS3Client(cfg: S3Config): S3Client {
  return new S3Client({
    endpoint: cfg.endpoint,
    region: cfg.region,
    forcePathStyle: cfg.forcePathStyle,
    credentials:
      cfg.accessKeyId && cfg.secretAccessKey
        ? { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey }
        : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function createS3Objects(
  cfg: S3Config,
  client: S3Client = createS3Client(cfg),
  singlePutMaxBytes = SINGLE_PUT_MAX_BYTES,
): ObjectStore {
  const Bucket = cfg.bucket;
  return {
    async putFile(key, localPath, { contentType, whenRead }: PutOptions = {}) {
      const { size } = await stat(localPath);
      const Body = createReadStream(localPath);
      if (whenRead) Body.once('end', whenRead);
      if (size <= singlePutMaxBytes) {
        await client.send(
          new PutObjectCommand({ Bucket, Key: key, Body, ContentType: contentType, ContentLength: size }),
        );
        return { size };
      }
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body, ContentType: contentType, ContentLength: size },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        leavePartsOnError: false,
      });
      await upload.done();
      return { size };
    },
    async read(key, range) {
      try {
        const out = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
        const total = out.ContentRange ? Number(out.ContentRange.split('/')[1]) : Number(out.ContentLength);
        return { body: out.Body as Readable, size: total, modifiedAt: out.LastModified ?? new Date(0) };
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },
    async head(key) {
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: Number(out.ContentLength), modifiedAt: out.LastModified ?? new Date(0) };
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async list(prefix) {
      if (prefix === '') throw new Error('Refusing to list a whole bucket');
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    async deletePrefix(prefix) {
      if (prefix === '') throw new Error('Refusing to delete a whole bucket');
      let deleted = 0;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
        );
        const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
        if (keys.length > 0) {
          await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
          deleted += keys.length;
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return deleted;
    },
    async ping() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    close() {
      client.destroy();
    },
  };
}
