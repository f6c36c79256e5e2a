// Items stored before an upload's length was its decoded one: an MP3's was its frames whole, the
// encoder's delay and padding included, some tens of ms longer than what the engine finds in it.
// On such an item's next merge its length is measured again (the in-process frame scan, no
// decode) and stored, and a kept end at or past it becomes the end: the merge then never fails on
// an end the page saved at the old length.
import { decodedLength, probeFile, type Tools } from '../../engine/index.js';
import type { ItemRow, Store } from '../data/store.js';

/** MP3 frames hold 1152 samples (MPEG-1) or 576 (MPEG-2 and 2.5). */
const FRAME_SAMPLES = [1152, 576];

/**
 * Pure: whether an MP3 item's length is a whole number of frames, as every MP3's length was
 * before. A decoded length is one too only when the file states no delay and padding, and then
 * measuring it again finds the same length.
 */
export function mayBeFramesLength(item: Pick<ItemRow, 'format' | 'duration' | 'sampleRate'>): boolean {
  if (item.format !== 'mp3' || !(item.sampleRate > 0) || !(item.duration > 0)) return false;
  const samples = item.duration * item.sampleRate;
  return FRAME_SAMPLES.some((n) => Math.abs(samples / n - Math.round(samples / n)) < 1e-3);
}

/**
 * The items of a merge, each MP3 whose length may be its frames' measured again from its local
 * file (`inputs`, in the same order) and fixed in the store when it differs by a sample or more.
 * A file that cannot be probed is left as it is: the merge names it.
 */
export async function fixLegacyLengths(
  store: Pick<Store, 'fixItemLength'>,
  items: readonly ItemRow[],
  inputs: readonly string[],
  tools?: Tools,
): Promise<ItemRow[]> {
  const fixed = new Map<string, ItemRow>();
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    if (seen.has(item.id) || !mayBeFramesLength(item)) continue;
    seen.add(item.id);
    const probe = await probeFile(inputs[i], {
      tools,
      displayName: item.filename,
      countEveryFrame: true,
    }).catch(() => undefined);
    if (!probe) continue;
    const duration = decodedLength(probe);
    if (Math.abs(duration - item.duration) * item.sampleRate < 1) continue;
    await store.fixItemLength(item.sid, item.id, duration);
    fixed.set(item.id, {
      ...item,
      duration,
      end: item.end != null && item.end >= duration ? null : item.end,
    });
  }
  return items.map((item) => fixed.get(item.id) ?? item);
}
