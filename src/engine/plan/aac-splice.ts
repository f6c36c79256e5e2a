// Pure: trims of copied AAC cut at the sample while every packet away from a cut stays copied.
// One AAC track decodes to whole 1024-sample frames after the edit list's first skip (decoders
// honour further edits only at whole packets), so each cut is re-encoded in a short stretch: the
// kept samples around the cut, led in and out by real audio so the encoder's overlap matches the
// copies beside it. Copied packets keep their input's frame grid, so before the copy that follows
// a stretch, a pad of silence (under one frame) puts that input's first copied frame on the
// output's grid; at the file's start the pad is skipped by the edit list instead, so it is silent
// nowhere.
import type { OutputFormat } from './formats.js';
import { STEP_COST } from './progress-weights.js';

/** Samples per AAC-LC frame (packet). */
const FRAME = 1024;
/**
 * Whole frames re-encoded beyond the one a cut falls in. The encoder switches to short windows
 * around the abrupt change a cut makes; the stretch's frames that overlap a copy must keep the long
 * window the copy was coded against, so the cut lies outside their windows (one frame of margin was
 * measured to leave a seam error of a fifth of a sine's level; two leave none above its coding noise).
 */
export const SPLICE_MARGIN = 2;
/** Real audio fed before and after a stretch (as the chunked encodes do). */
export const SPLICE_ROLL = 2048;

/** What the splice needs of one copied AAC input. */
export interface SpliceSource {
  /** Packets in the input. */
  packets: number;
  /** Samples of encoder priming its edit list skips. */
  priming: number;
  /** Samples of audio after the priming. */
  audioSamples: number;
  /** The kept samples of its decoded audio, [start, end); undefined: all of it. */
  keep?: { start: number; end: number };
}

/** Samples [from, to) of input `input`'s decoded audio, or that many samples of silence. */
export type Piece = { input: number; from: number; to: number } | { silence: number };

export interface CopySegment {
  kind: 'copy';
  input: number;
  /** Packets [from, to) of the input, copied unchanged. */
  from: number;
  to: number;
  /** Samples of its decoded output skipped at the start of the file (the edit list), first segment only. */
  skip: number;
  /** Samples presented. */
  samples: number;
}

export interface StretchSegment {
  kind: 'stretch';
  /** What the output holds here: kept samples of inputs and pads of silence, in order. */
  pieces: Piece[];
  /** Samples of `pieces`, all presented. */
  samples: number;
  /**
   * Audio fed ahead of the pieces and dropped (a whole number of frames): the real audio before
   * them, or silence after a copy that ends with its own padding; and real audio after them.
   */
  preroll?: Piece;
  postroll?: { input: number; from: number; to: number };
  /** At the file's start: silence fed first and skipped by the edit list (with the pre-roll), so the pieces end on a frame. */
  lead: number;
  first: boolean;
  /** No copy follows (the file's end): its last frame may run past its samples. */
  final: boolean;
}

export type SpliceSegment = CopySegment | StretchSegment;

export interface SplicePlan {
  segments: SpliceSegment[];
  /** Per input, where its kept audio starts in the output, in samples. */
  starts: number[];
  /** Samples presented in all. */
  total: number;
}

/** Where an input's kept audio lies in its own packets (media samples count the priming), and what is copied. */
interface Span {
  mediaStart: number;
  mediaEnd: number;
  /** Packets [c0, c1) copied; none when c1 <= c0. */
  c0: number;
  c1: number;
  startCut: boolean;
  endCut: boolean;
}

/** The kept samples of an input's decoded audio, [start, end). */
function keptOf(s: SpliceSource): { start: number; end: number } {
  const start = Math.max(0, Math.min(s.keep?.start ?? 0, s.audioSamples));
  return { start, end: Math.max(start, Math.min(s.keep?.end ?? s.audioSamples, s.audioSamples)) };
}

/**
 * `cuts`: whether each end is spliced. A trimmed end is, and so is the other side of its join
 * (an untrimmed neighbour's own start or end goes into the stretch too), so a stretch always
 * follows and leads into real audio of the copies beside it, and no priming or padding of an
 * input sits at a cut join.
 */
function spanOf(s: SpliceSource, cuts: { start: boolean; end: boolean }): Span {
  const { start, end } = keptOf(s);
  const startCut = cuts.start;
  const endCut = cuts.end;
  const mediaStart = s.priming + start;
  const mediaEnd = s.priming + end;
  const c0 = startCut ? Math.ceil(mediaStart / FRAME) + SPLICE_MARGIN : 0;
  let c1 = endCut ? Math.floor(mediaEnd / FRAME) - SPLICE_MARGIN : s.packets;
  // The re-encoded tail starts where the copy ends: never inside the priming.
  if (endCut && c1 * FRAME < s.priming) c1 = c0;
  return { mediaStart, mediaEnd, c0, c1, startCut, endCut };
}

const piecesLength = (pieces: Piece[]) =>
  pieces.reduce((n, p) => n + ('silence' in p ? p.silence : p.to - p.from), 0);

/** The stretch being gathered: its pieces and the input whose copy it follows (for the pre-roll). */
interface Open {
  pieces: Piece[];
  preroll?: Piece;
}

/** Plan the copies and re-encoded stretches of inputs (all copied AAC of one stream shape), trims included. */
export function planAacSplice(sources: readonly SpliceSource[]): SplicePlan {
  const plan = new SplicePlanner();
  const trimmedStart = sources.map((s) => keptOf(s).start > 0);
  const trimmedEnd = sources.map((s) => keptOf(s).end < s.audioSamples);
  sources.forEach((s, i) => {
    const span = spanOf(s, {
      start: trimmedStart[i] || (i > 0 && trimmedEnd[i - 1]),
      end: trimmedEnd[i] || (i + 1 < sources.length && trimmedStart[i + 1]),
    });
    if (span.c1 <= span.c0) return plan.inside(i, s, span);
    plan.closeBefore(i, s, span);
    plan.copy(i, s, span, i === sources.length - 1);
    if (span.endCut) plan.openAfter(i, s, span);
  });
  return plan.finish();
}

/** The segments so far, where the next one starts in the output, and the stretch being gathered. */
class SplicePlanner {
  private segments: SpliceSegment[] = [];
  private starts: number[] = [];
  private pos = 0;
  private open: Open | undefined;

  /** An input too short to copy a packet of: all its kept samples go into the stretch. */
  inside(i: number, s: SpliceSource, span: Span): void {
    const from = span.mediaStart - s.priming;
    this.starts[i] = this.pos + piecesLength(this.openWith(i, from).pieces);
    this.piece(i, from, span.mediaEnd - s.priming);
  }

  /**
   * Close the stretch before input i's copy (opening one for its head when its start is cut): a
   * pad of silence before its head puts its first copied frame on the output's grid.
   */
  closeBefore(i: number, s: SpliceSource, span: Span): void {
    const dec = (media: number) => media - s.priming;
    if (span.startCut) this.openWith(i, dec(span.mediaStart));
    const open = this.open;
    if (!open) {
      this.starts[i] = this.segments.length === 0 ? 0 : this.pos + s.priming;
      return;
    }
    const head = dec(span.c0 * FRAME) - dec(span.mediaStart);
    const pad = (FRAME - ((piecesLength(open.pieces) + (span.startCut ? head : 0)) % FRAME)) % FRAME;
    const first = this.segments.length === 0;
    if (pad > 0 && !first) open.pieces.push({ silence: pad });
    this.starts[i] = this.pos + piecesLength(open.pieces) + (span.startCut ? 0 : s.priming);
    const from = dec(span.c0 * FRAME);
    this.piece(i, dec(span.mediaStart), from);
    // At the file's start the pad is silence fed first and skipped by the edit list.
    const stretch = closeStretch(open, { first, final: false, lead: first ? pad : 0 });
    if (span.startCut)
      stretch.postroll = { input: i, from, to: Math.min(s.audioSamples, from + SPLICE_ROLL) };
    this.push(stretch);
    this.open = undefined;
  }

  /** Input i's copied packets; the last input's ends with its own audio. */
  copy(i: number, s: SpliceSource, span: Span, lastInput: boolean): void {
    const skip = this.segments.length === 0 ? s.priming : 0;
    const samples =
      lastInput && !span.endCut ? span.mediaEnd - span.c0 * FRAME - skip : (span.c1 - span.c0) * FRAME - skip;
    this.push({ kind: 'copy', input: i, from: span.c0, to: span.c1, skip, samples });
  }

  /** Open the stretch after input i's copy with its tail, led in by the audio its copy ends with. */
  openAfter(i: number, s: SpliceSource, span: Span): void {
    const t0 = span.c1 * FRAME - s.priming;
    this.open = { pieces: [], preroll: rollBefore(i, t0) };
    this.piece(i, t0, span.mediaEnd - s.priming);
  }

  finish(): SplicePlan {
    if (this.open)
      this.push(closeStretch(this.open, { first: this.segments.length === 0, final: true, lead: 0 }));
    return { segments: this.segments, starts: this.starts, total: this.pos };
  }

  /**
   * The stretch being gathered, or a new one. One that opens the file is led in by the audio before
   * its cut (the edit list skips it). One after a copy that ends with its own padding (an untrimmed
   * input before an input too short to copy, cut at its end only) starts with a frame of silence:
   * its first frame overlaps that padding, so it must hold nothing the copy's last frame lacks.
   */
  private openWith(input: number, from: number): Open {
    this.open ??=
      this.segments.length === 0
        ? { pieces: [], preroll: rollBefore(input, from) }
        : { pieces: [{ silence: FRAME }], preroll: { silence: SPLICE_ROLL } };
    return this.open;
  }

  private piece(input: number, from: number, to: number): void {
    if (to > from) this.open!.pieces.push({ input, from, to });
  }

  private push(segment: SpliceSegment): void {
    this.segments.push(segment);
    this.pos += segment.samples;
  }
}

/** Whole frames of input `input`'s audio before sample `to`, at most SPLICE_ROLL; undefined when none. */
function rollBefore(input: number, to: number): Open['preroll'] {
  const back = Math.min(SPLICE_ROLL, Math.floor(Math.max(0, to) / FRAME) * FRAME);
  return back > 0 ? { input, from: to - back, to } : undefined;
}

function closeStretch(open: Open, o: { first: boolean; final: boolean; lead: number }): StretchSegment {
  return {
    kind: 'stretch',
    pieces: open.pieces,
    samples: piecesLength(open.pieces),
    ...(open.preroll ? { preroll: open.preroll } : {}),
    lead: o.lead,
    first: o.first,
    final: o.final,
  };
}

/**
 * The packets of a stretch's encode that are kept, given the encoder's priming (whole frames):
 * packet j decodes the feed's samples from j * 1024 - priming. The first stretch keeps the
 * encode's first packets and skips the priming, its lead and its pre-roll by the edit list; a
 * later one drops the packets of its pre-roll. Its last packet is the one that ends its samples.
 */
export function stretchPackets(
  s: StretchSegment,
  encoderPriming: number,
): { first: number; count: number; skip: number } {
  if (encoderPriming % FRAME !== 0) throw new Error('internal: AAC priming is not whole frames');
  const preroll = s.preroll ? piecesLength([s.preroll]) : 0;
  const skip = s.first ? encoderPriming + s.lead + preroll : 0;
  const first = s.first ? 0 : (preroll + encoderPriming) / FRAME;
  const count = Math.ceil((skip + s.samples) / FRAME);
  return { first, count, skip };
}

/** The feed of a stretch's encode, in order: lead, pre-roll, pieces, post-roll. */
export function stretchFeed(s: StretchSegment): Piece[] {
  const feed: Piece[] = [];
  if (s.lead > 0) feed.push({ silence: s.lead });
  if (s.preroll) feed.push(s.preroll);
  feed.push(...s.pieces);
  if (s.postroll) feed.push(s.postroll);
  // Neighbouring ranges of one input are one decode.
  return feed.reduce<Piece[]>((out, p) => {
    const prev = out.at(-1);
    if (prev && 'input' in prev && 'input' in p && prev.input === p.input && prev.to === p.from)
      out[out.length - 1] = { ...prev, to: p.to };
    else out.push(p);
    return out;
  }, []);
}

/**
 * Where a stretch's encode starts decoding a range that begins at sample `from`: a whole second at
 * least one second before it (a sample-exact point for ffmpeg's seek, with the decoder's overlap
 * settled well before the range), in seconds.
 */
export function stretchSeekSeconds(from: number, rate: number): number {
  return Math.max(0, Math.floor(from / rate) - 1);
}

/** The input a stretch belongs to: the first whose audio it is fed (input 0 for silence alone). */
export function stretchOwner(s: StretchSegment): number {
  const p = [s.preroll, ...s.pieces].find((x) => x !== undefined && 'input' in x);
  return p && 'input' in p ? p.input : 0;
}

/** A stretch's place in the progress bar: the input it reports as, and its weight. */
export interface StretchCost {
  owner: number;
  /** In the bar's unit for a copying route: seconds of one input's encode into the output format. */
  weight: number;
}

/**
 * What the progress bar weighs each stretch at, in order: the samples its encode encodes, those it
 * decodes for them (each range from where it is read) at a decode's cost, and its share of the
 * start of the ffmpeg it goes through (one per `perTool` stretches).
 */
export function stretchCosts(
  plan: SplicePlan,
  o: { rate: number; format: OutputFormat; perTool: number },
): StretchCost[] {
  const unit = STEP_COST.encode[o.format];
  const all = plan.segments.filter((s): s is StretchSegment => s.kind === 'stretch');
  return all.map((s, j) => {
    const feed = stretchFeed(s);
    const encoded = piecesLength(feed) / o.rate;
    const decoded = feed.reduce(
      (n, p) => ('input' in p ? n + p.to / o.rate - stretchSeekSeconds(p.from, o.rate) : n),
      0,
    );
    const group = Math.min(o.perTool, all.length - Math.floor(j / o.perTool) * o.perTool);
    const start = STEP_COST.toolStart / group;
    return {
      owner: stretchOwner(s),
      weight: encoded + (decoded * STEP_COST.decodeToPcm + start * STEP_COST.measure) / unit,
    };
  });
}

/** Per input, the weight of the stretches it reports as; an input with none weighs 0. */
export function weightsByInput(costs: readonly StretchCost[], inputs: number): number[] {
  const byInput = Array.from({ length: inputs }, () => 0);
  for (const c of costs) byInput[c.owner] += c.weight;
  return byInput;
}
