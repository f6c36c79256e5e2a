// GET /app/merge/peaks/{id}?bins=N: an item's waveform, for its owner. The waveforms themselves
// are made and kept by the upload work (uploads/waveforms.ts).
import type { FastifyInstance } from 'fastify';
import { DEFAULT_PEAK_SLICES, MAX_PEAK_SLICES, poolPeaks } from '../../../shared/peaks.js';
import type { Store } from '../../data/store.js';
import type { Peaks } from '../../uploads/waveforms.js';
import { fail } from '../errors.js';
import { requireSession } from '../session.js';
import { documented, peaksSchema } from './schemas.js';

/** `bins` as asked: a whole number from 1 to the most, or the default when absent. */
export function slicesAsked(raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return DEFAULT_PEAK_SLICES;
  const n = typeof raw === 'string' && /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  return n >= 1 && n <= MAX_PEAK_SLICES ? n : undefined;
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
