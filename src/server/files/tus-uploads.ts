// Resumable uploads in progress: their bytes and tus info files under DATA_DIR/tus (kept across a
// restart, so an upload resumes after one), and which session each belongs to. Every id here was
// made by the server; a client's id is only ever looked up, never joined into a path unchecked.
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { systemClock, type Clock } from '../../shared/clock.js';

/**
 * How long an upload that receives no byte keeps its hold on the disk (ms). Longer than the 60 s
 * in which a trickling PATCH is cut, so a client that resumes at once after a cut keeps its room;
 * an upload left waiting gives its room back to everyone else, and takes it again when resumed.
 */
export const UPLOAD_HOLD_IDLE_MS = 2 * 60_000;

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

/** A finished upload, an item or a refusal: kept so a client whose answer was lost learns it. */
export interface StoredUpload {
  sid: string;
  /** Its length in bytes. */
  size: number;
  /** The item it became; absent when it was refused. */
  itemId?: string;
  /** The refusal's status and JSON body, when it was refused. */
  refusal?: { status: number; body: string };
}

export interface TusUploads {
  dir: string;
  datastore: FileStore;
  /** Read the uploads left by a previous run, so they resume. */
  load(): Promise<void>;
  get(id: string): TusUpload | undefined;
  /** Uploads of this session still in progress (they count against MAX_FILES). */
  countFor(sid: string): number;
  /**
   * Room uploads in progress hold on the disk: each its declared length, until it has received no
   * byte for the hold's idle time (a request under way keeps it), the rest of it once resumed.
   */
  declaredBytes(): number;
  /** The declared lengths of this session's uploads in progress, held or not. */
  declaredBy(sid: string): number;
  /** Hold a place for an upload about to be created (synchronous, so counting is race-free). */
  reserve(upload: TusUpload): void;
  /** Whether the upload still holds its room on the disk. */
  holds(id: string): boolean;
  /** Hold `bytes` on the disk for the upload again, from now (a lapsed upload resumed). */
  hold(id: string, bytes: number): void;
  /** Give up the upload's hold on the disk at once (its resume was refused); it stays resumable. */
  lapse(id: string): void;
  /** A request for the upload is under way: it keeps its hold until `done()` and the idle time after. */
  busy(id: string): () => void;
  /** Where the upload's bytes are. */
  dataPath(id: string): string;
  /** Give up an upload's place in the count (its last byte is in); its files stay until discard. */
  release(id: string): void;
  /** Forget an upload and remove its files (the bytes may already have been moved away). */
  discard(id: string): Promise<void>;
  /** Whether every declared byte of the upload is in (it only waits to be stored). */
  isComplete(id: string): Promise<boolean>;
  /** Uploads whose bytes are all in: left by a run that died before it stored them. */
  completeOnes(): Promise<TusUpload[]>;
  /** Count a released upload as in progress again (storing it failed; its bytes wait for a retry). */
  restore(upload: TusUpload): void;
  /** Remember what the upload became, an item or a refusal (its own files are gone by then). */
  recordStored(id: string, stored: StoredUpload): Promise<void>;
  /** What a finished upload became, if it finished. */
  storedAs(id: string): Promise<StoredUpload | undefined>;
  /** Remove uploads with no byte since `before`, and those of sessions that are gone. */
  sweep(before: number, sessionExists: (sid: string) => Promise<boolean>): Promise<number>;
}

export interface TusUploadsOptions {
  clock?: Clock;
  /** UPLOAD_HOLD_IDLE_MS unless given (tests). */
  holdIdleMs?: number;
}

/** Where one upload's hold on the disk stands. */
interface Hold {
  bytes: number;
  /** When the upload last received a byte or a request for it ended (clock ms). */
  touchedAt: number;
  /** Requests under way. */
  busy: number;
}

export function createTusUploads(dataDir: string, opts: TusUploadsOptions = {}): TusUploads {
  const clock = opts.clock ?? systemClock;
  const idleMs = opts.holdIdleMs ?? UPLOAD_HOLD_IDLE_MS;
  const dir = path.join(path.resolve(dataDir), 'tus');
  // Beside the uploads' own folder, so that folder holds only uploads in progress.
  const doneDir = path.join(path.resolve(dataDir), 'tus-done');
  const datastore = new FileStore({ directory: dir });
  // What this server speaks (docs/reference/uploads.md): a length is always declared (MAX_FILE_MB is
  // checked before any byte), and abandoned uploads go by the sweep, not by tus's expiration.
  datastore.extensions = ['creation', 'creation-with-upload', 'termination'];
  const uploads = new Map<string, TusUpload>();
  const perSession = new Map<string, number>();
  const holds = new Map<string, Hold>();

  const add = (u: TusUpload, touchedAt = clock.now()) => {
    uploads.set(u.id, u);
    holds.set(u.id, { bytes: u.size, touchedAt, busy: 0 });
    perSession.set(u.sid, (perSession.get(u.sid) ?? 0) + 1);
  };
  const isHeld = (h: Hold, now: number) => h.busy > 0 || now - h.touchedAt < idleMs;
  const forget = (id: string) => {
    const u = uploads.get(id);
    if (!u) return;
    uploads.delete(id);
    holds.delete(id);
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
  const received = async (id: string) => (await stat(dataPath(id)).catch(() => undefined))?.size;
  const isComplete = async (id: string) => {
    const u = uploads.get(id);
    return u !== undefined && (await received(id)) === u.size;
  };
  const donePath = (id: string) => path.join(doneDir, `${dataPath(id).slice(dir.length + 1)}.json`);
  /** Records of stored uploads older than `before` go: by then the client has long asked. */
  const sweepDone = async (before: number) => {
    for (const name of await readdir(doneDir).catch(() => [] as string[])) {
      const file = path.join(doneDir, name);
      const at = (await stat(file).catch(() => undefined))?.mtimeMs;
      if (at !== undefined && at < before) await rm(file, { force: true });
    }
  };

  return {
    dir,
    datastore,
    async load() {
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const name of names) {
        const id = name.endsWith('.json') ? name.slice(0, -5) : '';
        if (!TUS_ID.test(id) || uploads.has(id)) continue;
        // An info file cut short by a kill -9 mid-write is no upload to resume: it goes, and the
        // process starts (a parse error here once kept a killed web process from starting again).
        const info = await readFile(path.join(dir, name), 'utf8')
          .then((text) => JSON.parse(text) as unknown)
          .catch(() => undefined);
        const known = info as { metadata?: Record<string, string>; size?: number } | undefined;
        const meta = known?.metadata;
        if (meta?.sid && typeof known?.size === 'number') {
          // Left by another run: it holds nothing until it is resumed.
          const upload = { id, sid: meta.sid, appid: meta.appid ?? '', filename: meta.filename ?? '' };
          add({ ...upload, size: known.size }, Number.NEGATIVE_INFINITY);
        } else {
          await removeFiles(id);
        }
      }
    },
    get: (id) => uploads.get(id),
    countFor: (sid) => perSession.get(sid) ?? 0,
    declaredBytes() {
      const now = clock.now();
      let total = 0;
      for (const h of holds.values()) if (isHeld(h, now)) total += h.bytes;
      return total;
    },
    declaredBy(sid) {
      let total = 0;
      for (const u of uploads.values()) if (u.sid === sid) total += u.size;
      return total;
    },
    reserve: (u) => add(u),
    holds: (id) => {
      const h = holds.get(id);
      return h !== undefined && isHeld(h, clock.now());
    },
    hold(id, bytes) {
      const h = holds.get(id);
      if (h) Object.assign(h, { bytes, touchedAt: clock.now() });
    },
    lapse(id) {
      const h = holds.get(id);
      if (h) h.touchedAt = Number.NEGATIVE_INFINITY;
    },
    busy(id) {
      const h = holds.get(id);
      if (!h) return () => {};
      h.busy++;
      h.touchedAt = clock.now();
      let done = false;
      return () => {
        if (done) return;
        done = true;
        h.busy--;
        h.touchedAt = clock.now();
      };
    },
    dataPath,
    release: forget,
    isComplete,
    async completeOnes() {
      const done: TusUpload[] = [];
      for (const u of [...uploads.values()]) if (await isComplete(u.id)) done.push(u);
      return done;
    },
    restore(u) {
      if (!uploads.has(u.id)) add(u);
    },
    async recordStored(id, stored) {
      await mkdir(doneDir, { recursive: true });
      await writeFile(donePath(id), JSON.stringify(stored));
    },
    async storedAs(id) {
      if (!TUS_ID.test(id)) return undefined;
      const info = await readFile(donePath(id), 'utf8').then(JSON.parse, () => undefined);
      const s = info as Partial<StoredUpload> | undefined;
      if (typeof s?.sid !== 'string' || typeof s.size !== 'number') return undefined;
      const refusal = s.refusal;
      if (typeof s.itemId === 'string') return { sid: s.sid, size: s.size, itemId: s.itemId };
      if (typeof refusal?.status === 'number' && typeof refusal.body === 'string')
        return { sid: s.sid, size: s.size, refusal: { status: refusal.status, body: refusal.body } };
      return undefined;
    },
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
      await sweepDone(before);
      return removed;
    },
  };
}
