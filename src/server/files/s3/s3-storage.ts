// FileStorage on an S3-compatible bucket: uploads and results are objects under "<sid>/", and
// DATA_DIR keeps only this process's scratch area (the same one disk storage uses). The engine
// needs local files, so localPath downloads an object into the merge's scratch folder, unless a
// process that merges holds a local copy of the upload (local-copies.ts): then it links that.
import { createWriteStream } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { check, createDiskStorage, SAFE_NAME } from '../disk/disk-storage.js';
import { areaPrefix, objectKey, sessionPrefix } from './object-keys.js';
import type { ObjectStore } from './s3-objects.js';
import type { Dropped } from './copy-drops.js';
import type { LocalCopies } from './local-copies.js';
import type { FileRef, FileStorage } from '../storage.js';

const DOWNLOAD_BUFFER = 1024 * 1024;

export interface S3Storage extends FileStorage {
  /** Throws unless the bucket answers (for /readyz). */
  ping(): Promise<void>;
}

/** Only uploads are copied: results are read once, by whoever downloads them, through a web process. */
const copied = (ref: FileRef, copies: LocalCopies | undefined) =>
  ref.area === 'uploads' ? copies : undefined;

export interface S3StorageOptions {
  /** For processes that merge (ROLE=all or worker); a web process would never read them. */
  copies?: LocalCopies;
  /**
   * Tells the other processes of a deleted upload or session, so they drop their copies too
   * (copy-drops.ts). Not awaited: with Redis away the deletion must still answer; copies idle out.
   */
  tellDropped?: (dropped: Dropped) => Promise<void>;
}

export function createS3Storage(
  objects: ObjectStore,
  dataDir: string,
  { copies, tellDropped }: S3StorageOptions = {},
): S3Storage {
  const scratch = createDiskStorage(dataDir);
  const tell = (dropped: Dropped) => void tellDropped?.(dropped).catch(() => undefined);
  return {
    async put(ref, localPath) {
      const keeper = copied(ref, copies);
      if (keeper) {
        await objects.putFile(objectKey(ref), localPath);
        await keeper.adopt(objectKey(ref), localPath);
        return;
      }
      // The local file goes once it is all read, while the server still stores the last bytes:
      // unlinking a 15 MB file took ~5 ms, on the way to every upload's and merge's answer.
      // The unlink's failure, if any, is held until the object is complete, then thrown as before.
      let removed: Promise<unknown> | undefined;
      const removeOnceRead = () => {
        removed = unlink(localPath).then(
          () => undefined,
          (err: unknown) => err ?? new Error('unlink failed'),
        );
      };
      await objects.putFile(objectKey(ref), localPath, { whenRead: removeOnceRead });
      // Stored without the stream read to its end (an empty file): removed here.
      const failed = await (removed ?? unlink(localPath));
      if (failed) throw failed;
    },
    stat: (ref) => objects.head(objectKey(ref)),
    async read(ref, range) {
      const object = await objects.read(objectKey(ref), range);
      if (!object)
        throw Object.assign(new Error(`No stored file ${ref.area}/${ref.sid}/${ref.name}`), {
          code: 'ENOENT',
        });
      return object.body;
    },
    async open(ref) {
      const object = await objects.read(objectKey(ref));
      return object && { stream: object.body, size: object.size, modifiedAt: object.modifiedAt };
    },
    async localPath(ref, scratchDir) {
      // The same upload may appear twice in one merge: one file each, under distinct names.
      await mkdir(scratchDir, { recursive: true });
      const target = path.join(
        scratchDir,
        `${ref.area}-${Math.random().toString(36).slice(2, 10)}-${ref.name}`,
      );
      const keeper = copied(ref, copies);
      if (await keeper?.linkTo(objectKey(ref), target)) return target;
      const object = await objects.read(objectKey(ref));
      if (!object)
        throw Object.assign(new Error(`No stored file ${ref.area}/${ref.sid}/${ref.name}`), {
          code: 'ENOENT',
        });
      // Up to 1 MiB waits for the disk, written in one call: with the default 16 kB each 64 kB
      // chunk from the socket was its own write (3 x 5 MB: 65 ms of CPU against 50,
      // docs/decisions/0023-one-put-up-to-64-mib.md).
      await pipeline(object.body, createWriteStream(target, { highWaterMark: DOWNLOAD_BUFFER }));
      await keeper?.keep(objectKey(ref), target);
      return target;
    },
    async remove(ref) {
      await objects.delete(objectKey(ref));
      if (ref.area !== 'uploads') return;
      await copies?.drop(objectKey(ref));
      tell({ key: objectKey(ref) });
    },
    async storedNames(area, sid, prefix) {
      const dir = areaPrefix(sid, area);
      const keys = await objects.list(`${dir}${check(prefix, SAFE_NAME, 'file name prefix')}`);
      return keys.map((key) => key.slice(dir.length));
    },
    async removeSession(sid) {
      await objects.deletePrefix(sessionPrefix(sid));
      await copies?.dropPrefix(sessionPrefix(sid));
      tell({ prefix: sessionPrefix(sid) });
    },
    scratchPath: (name) => scratch.scratchPath(name),
    clearScratch: (prefix) => scratch.clearScratch(prefix),
    ping: () => objects.ping(),
  };
}
