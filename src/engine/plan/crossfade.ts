// Pure crossfade arithmetic: constant-power fade curves, and fitting a requested crossfade to
// each pair of neighbours (a pair too short for it gets a shorter one, and a message says so).

/**
 * Gains of the outgoing and incoming input at fraction `t` (0..1) of the fade: a quarter sine and
 * cosine, so out^2 + in^2 = 1 and the summed power of uncorrelated material stays level (the
 * midpoint is -3 dB each, not the -6 dB of a linear fade). ffmpeg's acrossfade curve `qsin`.
 */
export function constantPowerGains(t: number): { out: number; in: number } {
  const x = Math.min(1, Math.max(0, t));
  return { out: Math.cos((x * Math.PI) / 2), in: Math.sin((x * Math.PI) / 2) };
}

export interface FadeFit {
  /** Seconds the two inputs overlap. */
  seconds: number;
  /** The pair was too short for the requested length. */
  shortened: boolean;
}

/**
 * The crossfade between inputs of `a` and `b` seconds: as asked, unless either is shorter than
 * twice that, in which case half the shorter one (so no input is faded over more than half).
 */
export function fitCrossfade(requested: number, a: number, b: number): FadeFit {
  if (!(requested > 0)) return { seconds: 0, shortened: false };
  const room = Math.min(a, b) / 2;
  if (room >= requested) return { seconds: requested, shortened: false };
  return { seconds: Math.max(0, room), shortened: true };
}

/**
 * Fades for every join of `durations` (one fewer than inputs). An input in the middle takes part
 * in two fades, so each of its fades may use at most half of it.
 */
export function planCrossfades(requested: number, durations: readonly number[]): FadeFit[] {
  const fades: FadeFit[] = [];
  for (let i = 0; i + 1 < durations.length; i++)
    fades.push(fitCrossfade(requested, durations[i], durations[i + 1]));
  return fades;
}

/** The line for stderr and the report when a pair's crossfade had to be shortened. */
export function shortenedMessage(first: string, second: string, requested: number, fit: FadeFit): string {
  return `crossfade between ${first} and ${second} shortened to ${fit.seconds.toFixed(3)} s (asked ${requested} s): one of them is shorter than ${(2 * requested).toFixed(3)} s`;
}

/**
 * Where each input starts in the output, in seconds: after the inputs before it, plus a gap
 * between neighbours, minus the overlap of each fade before it (an input's audio starts where its
 * fade in begins).
 */
export function inputStarts(
  durations: readonly number[],
  gap: number,
  fades: readonly FadeFit[] = [],
): number[] {
  const starts: number[] = [];
  let t = 0;
  for (let i = 0; i < durations.length; i++) {
    starts.push(t);
    t += durations[i] + (i + 1 < durations.length ? gap - (fades[i]?.seconds ?? 0) : 0);
  }
  return starts;
}

/** Overlaps in sample frames, each at most half of either neighbour as decoded. */
export function fadeFrames(
  fadeSeconds: readonly number[],
  samples: readonly number[],
  rate: number,
): number[] {
  return fadeSeconds.map((s, i) =>
    Math.min(Math.round(s * rate), Math.floor(samples[i] / 2), Math.floor(samples[i + 1] / 2)),
  );
}
