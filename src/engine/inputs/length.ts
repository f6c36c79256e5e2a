// An input's one length: what a merge of the whole input holds. The server measures it once at
// upload with this function and keeps it; the engine checks trims against the same rule, so a span
// the page saved at a file's end is a span the merge finds inside the file.
import { mp3DecodedSamples } from '../mp3/gapless.js';
import type { ProbeResult } from '../types.js';

export { END_SLACK_SECONDS } from '../../shared/trim-span.js';

/** Samples a decoder may run past an AAC track's stated end: its last frame's padding (and one more frame). */
const AAC_PADDING_SAMPLES = 2048;

/**
 * The decoded length of a probed input, in seconds, without encoder delay and padding.
 * - An MP3: its frames, less the delay and padding its LAME tag states (what ffmpeg gives once it
 *   has trimmed both), with no decode.
 * - Anything else: `measuredSeconds`, what a decode of the whole file gave (a header's length or
 *   rate can lie; the samples cannot), except that an AAC track whose decode ends within its last
 *   frame's padding after the length its edit list states keeps the stated one (the decoder keeps
 *   the padding, the merge does not).
 * - Without a measure: the probe's length.
 */
export function decodedLength(probe: ProbeResult, measuredSeconds?: number): number {
  const mp3 = probe.mp3;
  if (mp3?.gapless && probe.sampleRate > 0)
    return mp3DecodedSamples(mp3.frames, mp3.samplesPerFrame, mp3.gapless) / probe.sampleRate;
  if (!(measuredSeconds && measuredSeconds > 0)) return probe.durationSeconds;
  const stated = probe.durationSeconds;
  const padding = probe.codec === 'aac' ? AAC_PADDING_SAMPLES / probe.sampleRate : 0;
  if (stated > 0 && measuredSeconds >= stated && measuredSeconds - stated <= padding) return stated;
  return measuredSeconds;
}
