// Pure: the ffmpeg filter chain that carries the sound options on an input that is decoded anyway
// (gain, trimmed ends, a gap after), in the same decode as its encode.

export interface InputSound {
  /** Output rate and channel count every chain converts to, so the joins see one format. */
  sampleRate: number;
  channels: number;
  /** Gain in dB (loudness matching). */
  gainDb?: number;
  /** Keep only [start, end) seconds of the decoded input (--trim-silence). */
  keep?: { start: number; end: number };
  /** Samples of silence after the input (--gap), at sampleRate. */
  padSamples?: number;
  /** A limiter after the gain (loudness matching of an input whose peaks would pass the ceiling). */
  limit?: LimiterSettings;
}

const sec = (s: number) => s.toFixed(6);

/** A look-ahead limiter holding samples under `ceilingDb`. */
export interface LimiterSettings {
  ceilingDb: number;
  attackMs: number;
  releaseMs: number;
}

/**
 * How many times the limiter's rate is the audio's: a true peak lies between samples (BS.1770
 * finds it at 4 times the rate), and a limiter that sees only the samples let noisy transients
 * through at 3-5 dB over its limit (measured: a drum-like FLAC at -2.5 dBFS samples, +2.1 dBTP).
 */
export const LIMITER_OVERSAMPLING = 4;

/**
 * alimiter at 4 times the rate (a true-peak limiter), its look-ahead delay taken back: the input
 * padded by the attack at its end and the same span cut from its start, so every sample stays
 * where it was and the length is kept (the filter's own delay compensation is missing from older
 * ffmpeg builds; the resampler keeps both). Auto level off: the limiter only lowers peaks.
 */
export function limiterChain(l: LimiterSettings, sampleRate: number): string[] {
  const delay = Math.round((l.attackMs / 1000) * sampleRate);
  const limit = Math.max(0.0625, Math.min(1, 10 ** (l.ceilingDb / 20)));
  return [
    `apad=pad_len=${delay}`,
    `aresample=${sampleRate * LIMITER_OVERSAMPLING}`,
    `alimiter=limit=${limit.toFixed(6)}:attack=${l.attackMs}:release=${l.releaseMs}:level=0`,
    `aresample=${sampleRate}`,
    `atrim=start_sample=${delay}`,
    'asetpts=PTS-STARTPTS',
  ];
}

/** The filter chain for one decoded input; empty pieces are left out. */
export function inputChain(o: InputSound): string {
  const layout = o.channels === 1 ? 'mono' : o.channels === 2 ? 'stereo' : `${o.channels}c`;
  const parts: string[] = [];
  if (o.keep) parts.push(`atrim=start=${sec(o.keep.start)}:end=${sec(o.keep.end)}`, 'asetpts=PTS-STARTPTS');
  parts.push(
    `aresample=${o.sampleRate}`,
    `aformat=sample_fmts=fltp:sample_rates=${o.sampleRate}:channel_layouts=${layout}`,
  );
  // Float samples, so a gain that lifts a peak past full scale before a later stage is not clipped here.
  if (o.gainDb !== undefined && o.gainDb !== 0) parts.push(`volume=${o.gainDb.toFixed(2)}dB:precision=float`);
  if (o.limit) parts.push(...limiterChain(o.limit, o.sampleRate));
  if (o.padSamples && o.padSamples > 0) parts.push(`apad=pad_len=${Math.round(o.padSamples)}`);
  return parts.join(',');
}
