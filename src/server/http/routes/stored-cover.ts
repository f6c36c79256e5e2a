// A cover kept in file storage (the session's, a result's), read back whole to be sent as the
// image it is.
import { COVER_LIMITS, imageShape } from '../../../engine/index.js';
import type { FileRef, FileStorage } from '../../files/storage.js';

export interface StoredCover {
  data: Buffer;
  mime: 'image/jpeg' | 'image/png';
}

/**
 * The cover under `ref`; undefined when there is none (removed between the look-up and the read
 * included), when it is over the cover limit, or when it is no JPEG or PNG.
 */
export async function readStoredCover(files: FileStorage, ref: FileRef): Promise<StoredCover | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of (await files.read(ref)) as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > COVER_LIMITS.bytes) return undefined;
      chunks.push(chunk);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const data = Buffer.concat(chunks, total);
  const shape = imageShape(data);
  return shape && { data, mime: shape.mime };
}
