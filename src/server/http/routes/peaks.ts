// GET /app/merge/peaks/{id}?bins=N: an item's waveform, for its owner, and the one place that
// computes and keeps waveforms. A file that is decoded at upload anyway (to measure it) gets its
// peaks from that decode; an MP3 (measured by its frames, with no decode) gets them from one decode
// started as soon as it is stored, which its upload's answer does not wait for; a request that
// comes before that decode ends waits for it. Either way they are stored beside the file, so every
// later request is one small file read. Decodes run one at a time, each bounded in length and time,
// and one item is decoded once however many ask at the same moment.
import { rm, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { decodePeaks, type Tools } from '../../../engine/index.js';
import {
  DEFAULT_PEAK_SLICES,
  encodePeaks,
  MAX_PEAK_SLICES,
  parsePeaks,
  poolPeaks,
  type PeakTable,
} from '../../../shared/peaks.js';
import type { ItemRow, Store } from '../../data/store.js';
import { peaksRef, uploadRef, type FileStorage } from '../../files/storage.js';
import { fail } from '../errors.js';
import { requireSession } from '../session.js';
import { documented, peaksSchema } from './schemas.js';

export interface PeaksDeps {
  store: Store;
  files: FileStorage;
  tools: Tools;
  /** Decode no further (the merge limit: an upload is refused past it anyway). */
  limitSeconds: number;
  /** A decode that takes longer is ended and leaves no waveform. */
  timeoutMs?: number;
  log?: { warn(obj: object, msg: string): void };
}

/** A 24-hour MP3 decodes in under a minute on a small machine; far past that, something is wrong. */
export const PEAKS_TIMEOUT_MS = 10 * 60 * 1000;
/** A prepared waveform starts at the latest this long after its upload was stored. */
const START_LATEST_MS = 1000;

export interface Peaks {
  /** The item's waveform: stored, or computed now (once, however many ask at the same time). */
  of(item: ItemRow): Promise<PeakTable>;
  /**
   * Make a just-stored item's waveform: started once its upload has been answered (startQueued,
   * on each response), so the answer never waits for the decode's start.
   */
  prepare(item: ItemRow): void;
  /** Start the waveforms prepared so far. */
  startQueued(): void;
  /** Resolves once no decode is under way, waiting, or prepared and not started. */
  idle(): Promise<void>;
  /** Stop: the decode under way ends, the waiting ones are refused. */
  close(): Promise<void>;
}

/** Store an item's waveform (a few KB) beside its file. */
export async function keepPeaks(
  files: FileStorage,
  item: Pick<ItemRow, 'sid' | 'newfilename'>,
  peaks: PeakTable,
): Promise<void> {
  const local = files.scratchPath(`peaks-${item.newfilename}`);
  try {
    // Inside the try: a full disk can fail the write halfway, leaving a partial scratch file.
    await writeFile(local, encodePeaks(peaks));
    await files.put(peaksRef(item), local);
  } finally {
    await rm(local, { force: true });
  }
}

/** A stored table is at most 2 * 4096 bins and its header; anything larger is not one. */
const MAX_TABLE_BYTES = 64 * 1024;

/** `bins` as asked: a whole number from 1 to the most, or the default when absent. */
export function slicesAsked(raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return DEFAULT_PEAK_SLICES;
  const n = typeof raw === 'string' && /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  return n >= 1 && n <= MAX_PEAK_SLICES ? n : undefined;
}

async function readSmall(stream: Readable): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_TABLE_BYTES) {
      stream.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function createPeaks(deps: PeaksDeps): Peaks {
  const { store, files } = deps;
  const computing = new Map<string, Promise<PeakTable>>();
  // Waveforms started at upload, from their first look for a stored one to their end.
  const preparing = new Set<Promise<void>>();
  // Decodes one after another: a list of new MP3s asks for every waveform at once.
  let turn: Promise<unknown> = Promise.resolve();
  const stop = new AbortController();

  async function stored(item: ItemRow): Promise<PeakTable | undefined> {
    const ref = peaksRef(item);
    if (!(await files.stat(ref))) return undefined;
    const bytes = await readSmall(await files.read(ref));
    return bytes && parsePeaks(bytes);
  }

  async function compute(item: ItemRow): Promise<PeakTable> {
    stop.signal.throwIfAborted();
    // Only storage elsewhere makes a local copy there (the disk gives the file itself).
    const scratch = files.scratchPath(`peaks-of-${item.newfilename}`);
    try {
      const local = await files.localPath(uploadRef(item), scratch);
      const table = await decodePeaks(local, {
        tools: deps.tools,
        channels: item.channels,
        sampleRate: item.sampleRate,
        displayName: item.filename,
        limitSeconds: deps.limitSeconds,
        signal: AbortSignal.any([stop.signal, AbortSignal.timeout(deps.timeoutMs ?? PEAKS_TIMEOUT_MS)]),
      });
      // An item removed while it was decoded leaves no waveform behind, also when the removal
      // comes while the waveform is being stored.
      if (!(await store.itemById(item.id))) return table;
      await keepPeaks(files, item, table);
      if (!(await store.itemById(item.id))) await files.remove(peaksRef(item)).catch(() => {});
      return table;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  const queued: ItemRow[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  function startQueued(): void {
    clearTimeout(timer);
    timer = undefined;
    for (const item of queued.splice(0)) {
      const made = of(item).then(
        () => {},
        (err: unknown) =>
          deps.log?.warn({ err, item: item.id }, 'the waveform of a stored upload could not be made'),
      );
      preparing.add(made);
      void made.finally(() => preparing.delete(made));
    }
  }

  async function of(item: ItemRow): Promise<PeakTable> {
    const table = await stored(item);
    if (table) return table;
    let running = computing.get(item.id);
    if (!running) {
      const mine = turn.then(() => compute(item));
      turn = mine.catch(() => undefined);
      running = mine.finally(() => computing.delete(item.id));
      computing.set(item.id, running);
    }
    return running;
  }

  return {
    of,
    prepare(item) {
      queued.push(item);
      // Should no response come (a client gone), they start a moment later all the same.
      timer ??= setTimeout(startQueued, START_LATEST_MS);
    },
    startQueued,
    async idle() {
      for (;;) {
        if (queued.length > 0) await new Promise((resolve) => setTimeout(resolve, 10));
        else if (computing.size + preparing.size > 0)
          await Promise.allSettled([...computing.values(), ...preparing]);
        else return;
      }
    },
    async close() {
      clearTimeout(timer);
      queued.length = 0;
      stop.abort();
      await turn;
    },
  };
}

export async function peaksRoutes(app: FastifyInstance, deps: { store: Store; peaks: Peaks }): Promise<void> {
  const { store, peaks } = deps;
  app.get<{ Params: { id: string }; Querystring: { bins?: string } }>(
    '/app/merge/peaks/:id',
    documented(peaksSchema),
    async (request) => {
      const session = requireSession(request);
      const bins = slicesAsked(request.query.bins);
      if (bins === undefined)
        fail('badRequest', `bins: a whole number from 1 to ${MAX_PEAK_SLICES}`, { field: 'bins' });
      const item = await store.itemById(request.params.id);
      if (!item) fail('notFound');
      if (item.sid !== session.sid) fail('foreignItem');
      const table = await peaks.of(item).catch(async (err: unknown) => {
        // A decode that failed because the item was deleted under it says nothing of the file.
        if (!(await store.itemById(item.id))) fail('notFound');
        throw err;
      });
      return { duration: item.duration, peaks: poolPeaks(table, bins) };
    },
  );
}
