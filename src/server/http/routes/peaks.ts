// GET /app/merge/peaks/{id}?bins=N: an item's waveform, for its owner, and the one place that
// computes and keeps waveforms. A file that is decoded at upload anyway (to measure it) gets its
// peaks from that decode; an MP3 (measured by its frames, with no decode) gets them from a decode
// in the background once its upload has answered, one at a time. Either way they are stored beside
// the file, so a request is one small file read; a request that comes first computes them, once.
import { mkdir, rm, writeFile } from 'node:fs/promises';
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
  log?: { warn(obj: object, msg: string): void };
}

export interface Peaks {
  /** The item's waveform: stored, or computed now (once, however many ask at the same time). */
  of(item: ItemRow): Promise<PeakTable>;
  /** Compute and keep the item's waveform in the background, after the other waiting ones. */
  later(item: ItemRow): void;
  /** Resolves when the background has nothing left to do. */
  idle(): Promise<void>;
  /** Stop the background: the decode under way ends, the waiting ones are dropped. */
  close(): Promise<void>;
}

/** Store an item's waveform (a few KB) beside its file. */
export async function keepPeaks(
  files: FileStorage,
  item: Pick<ItemRow, 'sid' | 'newfilename'>,
  peaks: PeakTable,
): Promise<void> {
  const local = files.scratchPath(`peaks-${item.newfilename}`);
  await writeFile(local, encodePeaks(peaks));
  try {
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
  let queue: Promise<void> = Promise.resolve();
  const stop = new AbortController();

  async function stored(item: ItemRow): Promise<PeakTable | undefined> {
    const ref = peaksRef(item);
    if (!(await files.stat(ref))) return undefined;
    const bytes = await readSmall(await files.read(ref));
    return bytes && parsePeaks(bytes);
  }

  async function compute(item: ItemRow, signal?: AbortSignal): Promise<PeakTable> {
    const scratch = files.scratchPath(`peaks-of-${item.newfilename}`);
    await mkdir(scratch, { recursive: true });
    try {
      const local = await files.localPath(uploadRef(item), scratch);
      const table = await decodePeaks(local, {
        tools: deps.tools,
        channels: item.channels,
        sampleRate: item.sampleRate,
        displayName: item.filename,
        signal,
      });
      // An item removed while it was decoded leaves no waveform behind.
      if (await store.itemById(item.id)) await keepPeaks(files, item, table);
      return table;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  async function of(item: ItemRow, signal?: AbortSignal): Promise<PeakTable> {
    const table = await stored(item);
    if (table) return table;
    let running = computing.get(item.id);
    if (!running) {
      running = compute(item, signal).finally(() => computing.delete(item.id));
      computing.set(item.id, running);
    }
    return running;
  }

  return {
    of,
    later(item) {
      queue = queue.then(async () => {
        try {
          if (!stop.signal.aborted && (await store.itemById(item.id))) await of(item, stop.signal);
        } catch (err) {
          if (!stop.signal.aborted)
            deps.log?.warn({ err, item: item.id }, 'the waveform could not be computed');
        }
      });
    },
    idle: () => queue,
    async close() {
      stop.abort();
      await queue;
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
      const table = await peaks.of(item);
      return { duration: item.duration, peaks: poolPeaks(table, bins) };
    },
  );
}
