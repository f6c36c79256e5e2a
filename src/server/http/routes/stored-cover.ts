// A cover kept in file storage (the session's, a result's), streamed from storage as the image it
// is: a request holds at most a stream's buffer of it, never the whole picture, however many
// requests there are at once.
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { COVER_LIMITS, imageMime } from '../../../engine/index.js';
import type { FileRef, FileStorage, OpenedFile } from '../../files/storage.js';
import { fail } from '../errors.js';

/** Enough of the start of a file to tell a JPEG from a PNG. */
const SNIFF_BYTES = 8;

/** The first bytes of `stream`, given back to it (unshifted) so it still holds the whole file. */
async function peek(stream: Readable, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < bytes) {
    const chunk = stream.read() as Buffer | null;
    if (chunk) {
      chunks.push(chunk);
      total += chunk.length;
      continue;
    }
    if (stream.readableEnded) break;
    const [event] = await Promise.race([once(stream, 'readable'), once(stream, 'end').then(() => ['end'])]);
    if (event === 'end') break;
  }
  const head = Buffer.concat(chunks, total);
  if (total > 0) stream.unshift(head);
  return head;
}

/**
 * The stored file opened once, with its size, time and type, or undefined when it is gone, over
 * the limit or no cover. Everything sent comes from this one opening: a cover replaced meanwhile
 * is either wholly the old file or wholly the new one.
 */
async function openCover(
  files: FileStorage,
  ref: FileRef,
): Promise<(OpenedFile & { mime: 'image/jpeg' | 'image/png' }) | undefined> {
  const opened = await files.open(ref);
  if (!opened) return undefined;
  try {
    // Every cover was checked whole when it was stored: its first bytes name its type again.
    const mime = opened.size <= COVER_LIMITS.bytes ? imageMime(await peek(opened.stream, SNIFF_BYTES)) : null;
    if (mime) return { ...opened, mime };
  } catch (err) {
    opened.stream.destroy();
    throw err;
  }
  opened.stream.destroy();
  return undefined;
}

export interface CoverReply {
  /** The Cache-Control the route's cover calls for. */
  cacheControl: string;
  /** The 404's words when there is no cover. */
  missing: string;
  /** The request's If-None-Match, answered 304 when it names this very file. */
  ifNoneMatch?: string;
}

/**
 * Send the cover under `ref` with its type, length and validators, all of the one file opened;
 * 404 when there is none, it is over the limit, or it is no JPEG or PNG. The ETag names the
 * stored file by size and time: a new cover is a new file.
 */
export async function sendStoredCover(
  reply: FastifyReply,
  files: FileStorage,
  ref: FileRef,
  { cacheControl, missing, ifNoneMatch }: CoverReply,
): Promise<FastifyReply> {
  const cover = await openCover(files, ref);
  if (!cover) fail('notFound', missing);
  const etag = `"${cover.size.toString(36)}-${cover.modifiedAt.getTime().toString(36)}"`;
  void reply
    .header('cache-control', cacheControl)
    .header('etag', etag)
    .header('last-modified', cover.modifiedAt.toUTCString())
    .header('x-content-type-options', 'nosniff');
  if (ifNoneMatch?.split(/\s*,\s*/).includes(etag)) {
    cover.stream.destroy();
    return reply.status(304).send();
  }
  return reply.header('content-type', cover.mime).header('content-length', cover.size).send(cover.stream);
}
