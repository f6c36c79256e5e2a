// Pure: the cut regions of a copied MP3 join as one ffmpeg filter graph over one decoded stream.
// Every piece's frames are decoded one after another into one stream; where a region's inputs do
// not overlap (cuts, hard joins, gaps: no crossfade), its mix is nothing but stretches of that
// stream and silence, end to end, which atrim and concat give sample for sample. The regions'
// mixes follow each other in the graph's output, so one encode makes all of them.
import type { Placement } from './fade-splice.js';

/** One piece in the decoded stream: input `input`'s samples from raw position `rawStart`, `length` of them. */
export interface StreamPiece {
  input: number;
  rawStart: number;
  length: number;
  /** Where its first sample is in the decoded stream. */
  streamStart: number;
}

export type MixStep =
  /** Samples [from, to) of the decoded stream. */
  { kind: 'take'; from: number; to: number } | { kind: 'silence'; samples: number };

/**
 * The mix over raw [span.from, span.to) as steps, each input where it plays (its placement) from
 * its piece; undefined when two inputs play at one moment (a fade: their samples must be added).
 */
export function regionSteps(
  span: { from: number; to: number },
  pieces: readonly StreamPiece[],
  placements: readonly Placement[],
): MixStep[] | undefined {
  const parts = pieces
    .map((p) => {
      const place = placements[p.input];
      const a = Math.max(span.from, p.rawStart, place.start);
      const b = Math.min(span.to, p.rawStart + p.length, place.end);
      return { a, b, at: p.streamStart - p.rawStart };
    })
    .filter((x) => x.b > x.a)
    .sort((x, y) => x.a - y.a);
  const steps: MixStep[] = [];
  let cursor = span.from;
  for (const { a, b, at } of parts) {
    if (a < cursor) return undefined;
    if (a > cursor) steps.push({ kind: 'silence', samples: a - cursor });
    steps.push({ kind: 'take', from: a + at, to: b + at });
    cursor = b;
  }
  if (cursor < span.to) steps.push({ kind: 'silence', samples: span.to - cursor });
  return steps;
}

/** The graph: input 0's audio split, each take trimmed from it, silences made, all concatenated as [out]. */
export function mixGraph(regions: readonly MixStep[][], sampleRate: number, channels: number): string {
  const steps = regions.flat();
  const takes = steps.filter((s) => s.kind === 'take').length;
  const layout = channels === 1 ? 'mono' : 'stereo';
  const fmt = 'aformat=sample_fmts=fltp';
  const chains: string[] = [];
  if (takes > 0)
    chains.push(`[0:a]asplit=${takes}${Array.from({ length: takes }, (_, j) => `[i${j}]`).join('')}`);
  let t = 0;
  const labels = steps.map((s, k) => {
    if (s.kind === 'take') {
      chains.push(`[i${t++}]atrim=start_sample=${s.from}:end_sample=${s.to},asetpts=N/SR/TB,${fmt}[s${k}]`);
    } else {
      chains.push(`anullsrc=r=${sampleRate}:cl=${layout},atrim=end_sample=${s.samples},${fmt}[s${k}]`);
    }
    return `[s${k}]`;
  });
  chains.push(`${labels.join('')}concat=n=${steps.length}:v=0:a=1[out]`);
  return chains.join(';\n');
}
