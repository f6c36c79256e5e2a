// Resumable uploads in progress: their bytes and tus info files under DATA_DIR/tus (kept across a
// restart, so an upload resumes after one), and which session each belongs to. Every id here was
// made by the server; a client's id is only ever looked up, never joined into a path unchecked.
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';

/** The server's random ids (randomId(16), base64url). */
export const TUS_ID = /^[A-Za-z0-9_-]{22}$/;

export interface TusUpload {
  id: string;
  sid: string;
  appid: string;
  /** The client's file name, for messages only. */
  filename: string;
  /** Declared Upload-Length, bytes. */
  size: number;
}

export interface TusUploads {
  dir: string;
  datastore: FileStore;
  /** Read the uploads left by a previous run, so they resume. */
  load(): Promise<void>;
  get(id: string): TusUpload | undefined;
  /** Uploads of this session still in progress (they count against MAX_FILES). */
  countFor(sid: string): number;
  /** The lengths every upload in progress has declared: room they hold on the disk. */
  declaredBytes(): number;
  /** Hold a place for an upload about to be created (synchronous, so counting is race-free). */
  reserve(upload: TusUpload): void;
  /** Where the upload's bytes are. */
  dataPath(id: string): string;
  /** Give up an upload's place in the count (its last byte is in); its files stay until discard. */
  release(id: string): void;
  /** Forget an upload and remove its files (the bytes may already have been moved away). */
  discard(id: string): Promise<void>;
  /** Remove uploads with no byte since `before`, and those of sessions that are gone. */
  sweep(before: number, sessionExists: (sid: string) => Promise<boolean>): Promise<number>;
}

export function createTusUploads(dataDir: string): TusUploads {
  const dir = path.join(path.resolve(dataDir), 'tus');
  const datastore = new FileStore({ directory: dir });
  // What this server speaks (docs/api.md section 7): a length is always declared (MAX_FILE_MB is
  // checked before any byte), and abandoned uploads go by the sweep, not by tus's expiration.
  datastore.extensions = ['creation', 'creation-with-upload', 'termination'];
  const uploads = new Map<string, TusUpload>();
  const perSession = new Map<string, number>();
  let declared = 0;

  const add = (u: TusUpload) => {
    uploads.set(u.id, u);
    declared += u.size;
    perSession.set(u.sid, (perSession.get(u.sid) ?? 0) + 1);
  };
  const forget = (id: string) => {
    const u = uploads.get(id);
    if (!u) return;
    uploads.delete(id);
    declared -= u.size;
    const n = (perSession.get(u.sid) ?? 1) - 1;
    if (n > 0) perSession.set(u.sid, n);
    else perSession.delete(u.sid);
  };
  const dataPath = (id: string) => {
    if (!TUS_ID.test(id)) throw new Error(`Refusing an unsafe tus upload id: ${JSON.stringify(id)}`);
    return path.join(dir, id);
  };
  const removeFiles = async (id: string) => {
    const data = dataPath(id);
    await Promise.all([rm(data, { force: true }), rm(`${data}.json`, { force: true })]);
  };
  /** The data file's last change: when the last byte arrived (or creation). */
  const lastByteAt = async (id: string): Promise<number | undefined> =>
    (await stat(dataPath(id)).catch(() => undefined))?.mtimeMs;

  return {
    dir,
    datastore,
    async load() {
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names) {
        const id = name.endsWith('.json') ? name.slice(0, -5) : '';
        if (!TUS_ID.test(id) || uploads.has(id)) continue;
        const info = await readFile(path.join(dir, name), 'utf8').then(JSON.parse, () => undefined);
        const meta = (info as { metadata?: Record<string, string>; size?: number } | undefined)?.metadata;
        if (meta?.sid && typeof info?.size === 'number') {
          add({ id, sid: meta.sid, appid: meta.appid ?? '', filename: meta.filename ?? '', size: info.size });
        } else {
          await removeFiles(id);
        }
      }
    },
    get: (id) => uploads.get(id),
    countFor: (sid) => perSession.get(sid) ?? 0,
    declaredBytes: () => declared,
    reserve: add,
    dataPath,
    release: forget,
    async discard(id) {
      forget(id);
      await removeFiles(id);
    },
    async sweep(before, sessionExists) {
      let removed = 0;
      for (const u of [...uploads.values()]) {
        const last = await lastByteAt(u.id);
        const abandoned = last !== undefined && last < before;
        if (abandoned || !(await sessionExists(u.sid))) {
          await this.discard(u.id);
          removed++;
        }
      }
      // Files no upload claims (an info file never written, a crash between the two).
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        const id = name.replace(/\.json$/, '');
        if (TUS_ID.test(id) && !uploads.has(id) && ((await lastByteAt(id)) ?? 0) < before) {
          await removeFiles(id);
        }
      }
      return removed;
    },
  };
}
