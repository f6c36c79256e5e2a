// The calls trimming needs: saveItem with a row's kept span, and its waveform's peaks.
import { API } from '../../shared/types.js';
import { call, postJson } from '../api/http.js';

export interface PeaksAnswer {
  duration: number;
  peaks: number[];
}

/** POST saveItem {id, start, end}; null is the file's own start or end. */
export async function saveSpan(
  id: string,
  span: { start: number | null; end: number | null },
  opts: { keepalive?: boolean } = {},
): Promise<void> {
  await postJson(API.saveItem, { id, ...span }, opts.keepalive ? { keepalive: true } : {});
}

/** GET peaks: `bins` slices of the item's waveform, each 0..1. */
export async function fetchPeaks(id: string, bins: number): Promise<PeaksAnswer> {
  const url = `${API.peaks}/${encodeURIComponent(id)}?bins=${bins}`;
  return JSON.parse(
    await call(url, { method: 'GET', headers: { Accept: 'application/json' } }),
  ) as PeaksAnswer;
}

export const trimApi = { saveSpan, fetchPeaks };
export type TrimApi = typeof trimApi;
