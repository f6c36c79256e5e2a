// Pure: the ffmpeg filters that carry the sound options on inputs that are decoded anyway (gain,
// trimmed ends, a gap after), and the graphs that join decoded inputs in one process (plain
// concatenation, or constant-power crossfades).

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
}

const sec = (s: number) => s.toFixed(6);

/** The filter chain for one decoded input; empty pieces are left out. */
export function inputChain(o: InputSound): string {
  const layout = o.channels === 1 ? 'mono' : o.channels === 2 ? 'stereo' : `${o.channels}c`;
  const parts: string[] = [];
  if (o.keep) parts.push(`atrim=start=${sec(o.keep.start)}:end=${sec(o.keep.end)}`, 'asetpts=PTS-STARTPTS');
  parts.push(`aresample=${o.sampleRate}`, `aformat=sample_fmts=fltp:sample_rates=${o.sampleRate}:channel_layouts=${layout}`);
  // Float samples, so a gain that lifts a peak past full scale before a later stage is not clipped here.
  if (o.gainDb !== undefined && o.gainDb !== 0) parts.push(`volume=${o.gainDb.toFixed(2)}dB:precision=float`);
  if (o.padSamples && o.padSamples > 0) parts.push(`apad=pad_len=${Math.round(o.padSamples)}`);
  return parts.join(',');
}

export interface Graph {
  /** The -filter_complex text. */
  graph: string;
  /** Label of the joined output, for -map. */
  out: string;
}

/** Inputs 0..n-1 (ffmpeg input indexes), each through its chain, concatenated in order. */
export function concatGraph(chains: readonly string[]): Graph {
  const labelled = chains.map((c, i) => `[${i}:a:0]${c}[a${i}]`);
  const ins = chains.map((_, i) => `[a${i}]`).join('');
  return { graph: `${labelled.join(';')};${ins}concat=n=${chains.length}:v=0:a=1[out]`, out: '[out]' };
}

/**
 * Inputs 0..n-1 through their chains, each pair overlapped by fades[i] seconds with quarter-sine
 * curves (constant power). A fade of 0 joins that pair end to end.
 */
export function crossfadeGraph(chains: readonly string[], fades: readonly number[]): Graph {
  if (chains.length === 1) return { graph: `[0:a:0]${chains[0]}[out]`, out: '[out]' };
  const lines = chains.map((c, i) => `[${i}:a:0]${c}[a${i}]`);
  let prev = '[a0]';
  for (let i = 1; i < chains.length; i++) {
    const next = i === chains.length - 1 ? '[out]' : `[x${i}]`;
    const d = fades[i - 1] ?? 0;
    lines.push(d > 0 ? `${prev}[a${i}]acrossfade=d=${sec(d)}:c1=qsin:c2=qsin${next}` : `${prev}[a${i}]concat=n=2:v=0:a=1${next}`);
    prev = next;
  }
  return { graph: lines.join(';'), out: '[out]' };
}
