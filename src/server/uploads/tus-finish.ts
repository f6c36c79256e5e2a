// A tus upload whose last byte is in becomes an item (probed and stored like a multipart upload)
// or is refused with a reason, exactly once however it is reached: by the PATCH that carried the
// last byte, by a HEAD or PATCH that finds its bytes complete and no item (the server died between
// the two), or at start-up. Only a settled outcome removes the bytes: a shutdown or a failed store
// (a bucket down) keeps them, and the next request or start finishes the upload then.
import type { Store } from '../data/store.js';
import type { TusUpload, TusUploads } from '../files/tus-uploads.js';
import { errorCodeOf } from '../errors.js';
import { ERRORS } from '../http/errors.js';
import { toAudioItem } from './audio-item.js';
import type { StoreUpload } from './upload-store.js';

/** What a finished upload answers: the multipart upload's status and JSON body. */
export interface TusOutcome {
  status: number;
  body: string;
}

/** An outcome with the upload's length, for the headers of a HEAD. */
export type SizedOutcome = TusOutcome & { size: number };

export interface TusFinisherDeps {
  uploads: TusUploads;
  store: Pick<Store, 'itemById'>;
  storeUpload: StoreUpload;
  /** True once the server is shutting down: work cut short then keeps the upload's bytes. */
  closing: () => boolean;
  log?: { error(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

export interface TusFinisher {
  /**
   * Probe and store the upload now (or join the finish already under way). `signal` is the
   * client's: when it goes before the work ends, nothing is stored and the bytes go, unless the
   * server is shutting down.
   */
  finish(id: string, signal?: AbortSignal): Promise<SizedOutcome>;
  /** Whether a finish of the upload is under way. */
  isFinishing(id: string): boolean;
  /** The session a finish under way or a finished upload belongs to; undefined when neither. */
  ownerOf(id: string): Promise<string | undefined>;
  /** What a finished upload answered (its item as it is now), or undefined when it is not one. */
  finished(id: string): Promise<SizedOutcome | undefined>;
  /** Finish the uploads a previous run left complete but not stored (in the background). */
  recover(): Promise<void>;
  /** Stop: finishes under way end, keeping their bytes. */
  close(): Promise<void>;
}

const json = (status: number, body: object): TusOutcome => ({ status, body: JSON.stringify(body) });

export function createTusFinisher(deps: TusFinisherDeps): TusFinisher {
  const { uploads } = deps;
  const running = new Map<string, { sid: string; done: Promise<SizedOutcome> }>();
  const stop = new AbortController();

  /** The upload's outcome, and whether it settled (its bytes may go) or is to be tried again. */
  async function attempt(u: TusUpload, signal?: AbortSignal): Promise<TusOutcome> {
    const cut = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    // From here it is counted as an item (or refused), no longer as an upload in progress.
    uploads.release(u.id);
    let settled = false;
    try {
      const outcome = await deps.storeUpload({
        sid: u.sid,
        appid: u.appid,
        filename: u.filename,
        localPath: uploads.dataPath(u.id),
        signal: cut,
      });
      settled = true;
      const answer = outcome.ok
        ? json(200, { items: [outcome.item], errors: [] })
        : json(outcome.status, { error: outcome.error, code: outcome.code });
      // Remembered, so a client whose answer was lost (or a HEAD after a restart) learns it.
      const record = outcome.ok ? { itemId: outcome.item.id } : { refusal: answer };
      await uploads
        .recordStored(u.id, { sid: u.sid, size: u.size, ...record })
        .catch((err: unknown) =>
          deps.log?.error({ err, upload: u.id }, 'a finished tus upload was not recorded'),
        );
      return answer;
    } catch (err) {
      // The client gone while the server goes on: nothing is stored for nobody, as with multipart.
      settled = Boolean(signal?.aborted) && !stop.signal.aborted && !deps.closing();
      const code = errorCodeOf(err) ?? 'internal';
      if (!settled)
        deps.log?.info({ upload: u.id, code }, 'a finished tus upload is kept to be stored later');
      if (ERRORS[code].status >= 500 && !cut.aborted)
        deps.log?.error({ err, upload: u.id }, 'storing a finished tus upload failed');
      throw err;
    } finally {
      if (settled) await uploads.discard(u.id);
      else uploads.restore(u);
    }
  }

  const finish: TusFinisher['finish'] = (id, signal) => {
    const under = running.get(id);
    if (under) return under.done;
    const u = uploads.get(id);
    if (!u)
      return Promise.resolve({ ...json(404, { error: ERRORS.notFound.message, code: 'notFound' }), size: 0 });
    const done = attempt(u, signal)
      .then((o) => ({ ...o, size: u.size }))
      .finally(() => running.delete(id));
    running.set(id, { sid: u.sid, done });
    return done;
  };

  async function finished(id: string) {
    const stored = await uploads.storedAs(id);
    if (!stored) return undefined;
    if (stored.refusal) return { ...stored.refusal, size: stored.size };
    const item = stored.itemId ? await deps.store.itemById(stored.itemId) : undefined;
    // An item removed since: the upload is over, and nothing of it is left to show.
    if (!item) return undefined;
    return { ...json(200, { items: [toAudioItem(item)], errors: [] }), size: stored.size };
  }

  return {
    finish,
    isFinishing: (id) => running.has(id),
    async ownerOf(id) {
      return running.get(id)?.sid ?? uploads.get(id)?.sid ?? (await uploads.storedAs(id))?.sid;
    },
    finished,
    async recover() {
      for (const u of await uploads.completeOnes()) {
        if (stop.signal.aborted) return;
        await finish(u.id).catch(() => {});
      }
    },
    async close() {
      stop.abort();
      await Promise.allSettled([...running.values()].map((r) => r.done));
    },
  };
}
