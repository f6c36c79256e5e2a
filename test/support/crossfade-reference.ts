// What a crossfade should sound like, made the slow way: every input decoded whole, placed at its
// chapter start, and mixed with the constant-power curves; and how close an output comes to it.
import { constantPowerGains } from '../../src/engine/plan/crossfade.js';
import { decodeFloat } from './pcm-measure.js';

export interface Reference {
  pcm: Float32Array;
  /** Each input's start and end in the output, samples. */
  starts: number[];
  ends: number[];
}

/** Decode `inputs` (mono, `rate`), scale each by `gainsDb`, and mix them starting at `startsSeconds`. */
export async function fullDecodeCrossfade(
  inputs: string[],
  startsSeconds: number[],
  rate = 44100,
  gainsDb: number[] = [],
): Promise<Reference> {
  const decoded = await Promise.all(inputs.map((f) => decodeFloat(f, rate)));
  const starts = startsSeconds.map((s) => Math.round(s * rate));
  const ends = decoded.map((x, i) => starts[i] + x.length);
  const pcm = new Float32Array(ends[ends.length - 1]);
  decoded.forEach((x, i) => {
    const fadeIn = i > 0 ? ends[i - 1] - starts[i] : 0;
    const fadeOut = i + 1 < decoded.length ? ends[i] - starts[i + 1] : 0;
    const scale = 10 ** ((gainsDb[i] ?? 0) / 20);
    for (let n = 0; n < x.length; n++) {
      let g = 1;
      if (n < fadeIn) g = constantPowerGains((n + 0.5) / fadeIn).in;
      else if (fadeOut > 0 && n >= x.length - fadeOut)
        g = constantPowerGains((n - x.length + fadeOut + 0.5) / fadeOut).out;
      pcm[starts[i] + n] += g * scale * x[n];
    }
  });
  return { pcm, starts, ends };
}

export interface Likeness {
  /** The shift of `pcm` (samples, within ±maxLag) that best matches the reference. */
  lag: number;
  /** Normalized correlation at lag 0. */
  correlation: number;
  /** Level of `pcm` against the reference, dB (the best-fitting gain). */
  gainDb: number;
}

/** How `pcm` compares with `ref` over [from, to). */
export function likeness(
  pcm: Float32Array,
  ref: Float32Array,
  from: number,
  to: number,
  maxLag = 3,
): Likeness {
  const dot = (lag: number) => {
    let xy = 0;
    let xx = 0;
    let yy = 0;
    for (let k = from; k < to; k++) {
      const x = pcm[k + lag] ?? 0;
      xy += x * ref[k];
      xx += x * x;
      yy += ref[k] * ref[k];
    }
    return { xy, xx, yy };
  };
  let lag = 0;
  let best = -Infinity;
  for (let l = -maxLag; l <= maxLag; l++) {
    const d = dot(l);
    const c = d.xy / Math.sqrt(d.xx * d.yy);
    if (c > best) [best, lag] = [c, l];
  }
  const d = dot(0);
  return { lag, correlation: d.xy / Math.sqrt(d.xx * d.yy), gainDb: 20 * Math.log10(d.xy / d.yy) };
}
