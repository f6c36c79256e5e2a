// Pure: trims of copied AAC cut at the sample while every packet away from a cut stays copied.
// One AAC track decodes to whole 1024-sample frames after the edit list's first skip (decoders
// honour further edits only at whole packets), so each cut is re-encoded in a short stretch: the
// kept samples around the cut, led in and out by real audio so the encoder's overlap matches the
// copies beside it. Copied packets keep their input's frame grid, so before the copy that follows
// a stretch, a pad of silence (under one frame) puts that input's first copied frame on the
// output's grid; at the file's start the pad is skipped by the edit list instead, so it is silent
// nowhere.

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
  /** Real audio fed ahead of the pieces and dropped (a whole number of frames), and after them. */
  preroll?: { input: number; from: number; to: number };
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

function spanOf(s: SpliceSource): Span {
  const start = Math.max(0, Math.min(s.keep?.start ?? 0, s.audioSamples));
  const end = Math.max(start, Math.min(s.keep?.end ?? s.audioSamples, s.audioSamples));
  const startCut = start > 0;
  const endCut = end < s.audioSamples;
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
  preroll?: { input: number; from: number; to: number };
}

/** Plan the copies and re-encoded stretches of inputs (all copied AAC of one stream shape), trims included. */
export function planAacSplice(sources: readonly SpliceSource[]): SplicePlan {
  const segments: SpliceSegment[] = [];
  const starts: number[] = [];
  let pos = 0;
  let open: Open | undefined;
  const piece = (input: number, from: number, to: number) => {
    if (to > from) open!.pieces.push({ input, from, to });
  };
  // A stretch that opens the file is led in by the audio before its cut too (its edit list skips it).
  const openWith = (input: number, from: number): Open =>
    (open ??= segments.length === 0 ? { pieces: [], preroll: rollBefore(input, from) } : { pieces: [] });
  sources.forEach((s, i) => {
    const span = spanOf(s);
    const dec = (media: number) => media - s.priming;
    if (span.c1 <= span.c0) {
      starts[i] = pos + piecesLength(openWith(i, dec(span.mediaStart)).pieces);
      piece(i, dec(span.mediaStart), dec(span.mediaEnd));
      return;
    }
    if (span.startCut) openWith(i, dec(span.mediaStart));
    if (open) {
      const head = span.startCut ? dec(span.c0 * FRAME) - dec(span.mediaStart) : 0;
      const pad = (FRAME - ((piecesLength(open.pieces) + head) % FRAME)) % FRAME;
      const first = segments.length === 0;
      if (pad > 0 && !first) open.pieces.push({ silence: pad });
      starts[i] = pos + piecesLength(open.pieces) + (span.startCut ? 0 : s.priming);
      piece(i, dec(span.mediaStart), dec(span.c0 * FRAME));
      const from = dec(span.c0 * FRAME);
      const stretch = closeStretch(open, { first, final: false, lead: first ? pad : 0 });
      if (span.startCut)
        stretch.postroll = { input: i, from, to: Math.min(s.audioSamples, from + SPLICE_ROLL) };
      segments.push(stretch);
      pos += stretch.samples;
      open = undefined;
    } else starts[i] = segments.length === 0 ? 0 : pos + s.priming;
    const first = segments.length === 0;
    const skip = first ? s.priming : 0;
    const copied = (span.c1 - span.c0) * FRAME;
    const last = i === sources.length - 1 && !span.endCut;
    const samples = last ? span.mediaEnd - span.c0 * FRAME - skip : copied - skip;
    segments.push({ kind: 'copy', input: i, from: span.c0, to: span.c1, skip, samples });
    pos += samples;
    if (span.endCut) {
      const t0 = dec(span.c1 * FRAME);
      open = { pieces: [], preroll: rollBefore(i, t0) };
      piece(i, t0, dec(span.mediaEnd));
    }
  });
  if (open) {
    const first = segments.length === 0;
    const stretch = closeStretch(open, { first, final: true, lead: 0 });
    segments.push(stretch);
    pos += stretch.samples;
  }
  return { segments, starts, total: pos };
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
  const preroll = s.preroll ? s.preroll.to - s.preroll.from : 0;
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
