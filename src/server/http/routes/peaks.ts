// GET /app/merge/peaks/{id}?bins=N: an item's waveform, for its owner. The peaks were computed
// when the file was uploaded and stored beside it, so a request is one small file read; an item
// stored before that (or whose decode did not finish then) has them computed on its first request,
// once, and kept.
import { mkdir, rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { decodePeaks, type Tools } from '../../../engine/index.js';
import {
  DEFAULT_PEAK_SLICES,
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
import { keepPeaks } from './upload-store.js';

export interface PeaksRouteDeps {
  store: Store;
  files: FileStorage;
  tools: Tools;
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

export async function peaksRoutes(app: FastifyInstance, deps: PeaksRouteDeps): Promise<void> {
  const { store, files } = deps;
  // One decode per item however many requests come while it runs.
  const computing = new Map<string, Promise<PeakTable>>();

  async function stored(item: ItemRow): Promise<PeakTable | undefined> {
    const ref = peaksRef(item);
    if (!(await files.stat(ref))) return undefined;
    const bytes = await readSmall(await files.read(ref));
    return bytes && parsePeaks(bytes);
  }

  async function compute(item: ItemRow): Promise<PeakTable> {
    const scratch = files.scratchPath(`peaks-of-${item.newfilename}`);
    await mkdir(scratch, { recursive: true });
    try {
      const local = await files.localPath(uploadRef(item), scratch);
      const table = await decodePeaks(local, {
        tools: deps.tools,
        channels: item.channels,
        sampleRate: item.sampleRate,
        displayName: item.filename,
      });
      await keepPeaks(files, item, table);
      return table;
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  async function peaksOf(item: ItemRow): Promise<PeakTable> {
    const table = await stored(item);
    if (table) return table;
    let running = computing.get(item.id);
    if (!running) {
      running = compute(item).finally(() => computing.delete(item.id));
      computing.set(item.id, running);
    }
    return running;
  }

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
      const table = await peaksOf(item);
      return { duration: item.duration, peaks: poolPeaks(table, bins) };
    },
  );
}
