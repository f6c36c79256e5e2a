// Pure progress arithmetic: each input weighs by its duration, once for transcoding (when it is
// re-encoded) and once for joining; the percentage is whole, never goes back, and is 100 only
// when the caller says the output is complete. Beside it, where the work stands: the stage and
// the input being worked on.
import type { ProgressWeights } from './progress-weights.js';

/**
 * Where a merge stands: `reading` its inputs (probing, measuring loudness), `encoding` (decoding,
 * encoding, joining: the audio is being made), `writing` (the audio is made; the index, tags and
 * chapters go in). `file` is the input being worked on, 1-based: the first one not done yet.
 */
export interface ProgressWhere {
  stage: 'reading' | 'encoding' | 'writing';
  file: number;
  files: number;
}

/** Called with the whole percentage, and where the work stands, whenever either changes. */
export type OnProgress = (percent: number, where: ProgressWhere) => void;

export interface ProgressTrackerOptions {
  /** Seconds per input, in input order. */
  durations: number[];
  /** Indexes of the inputs that are re-encoded. */
  transcoded: readonly number[];
  /**
   * What a second of measuring and of the last phase cost against one of transcoding
   * (progress-weights.ts): a final encode of every input costs about as much as the decodes before
   * it, copying frames a sliver.
   */
  weights: ProgressWeights;
  /** Called only when the whole-number percentage, the stage or the file changes. */
  onPercent?: OnProgress;
  /** Indexes of the inputs measured first (the sound options). */
  measured?: readonly number[];
  /**
   * Per input, the seconds of it that are re-encoded when that is not all of it (a crossfade
   * spliced into copied frames re-encodes only around the fade).
   */
  encodedSeconds?: readonly number[];
}

export class ProgressTracker {
  private readonly transcodeWeight: number[];
  private readonly transcodeDone: number[];
  private readonly joinTotal: number;
  private readonly measureWeight: number[];
  private readonly measureDone: number[];
  private readonly onPercent: OnProgress;
  /** Where each input's join share ends, as a fraction of the whole join (cumulative durations). */
  private readonly joinEnds: number[];
  private joinDone = 0;
  private last = -1;
  private lastWhere = '';
  private finished = false;

  constructor({
    durations,
    transcoded,
    weights,
    onPercent = () => {},
    measured = [],
    encodedSeconds = [],
  }: ProgressTrackerOptions) {
    this.onPercent = onPercent;
    const safe = durations.map((d) => (Number.isFinite(d) && d > 0 ? d : 0));
    const re = new Set(transcoded);
    this.transcodeWeight = safe.map((d, i) => (re.has(i) ? Math.min(d, encodedSeconds[i] ?? d) : 0));
    this.transcodeDone = safe.map(() => 0);
    this.joinTotal = safe.reduce((a, b) => a + b, 0) * weights.last;
    const m = new Set(measured);
    this.measureWeight = safe.map((d, i) => (m.has(i) ? d * weights.measure : 0));
    this.measureDone = safe.map(() => 0);
    const sum = safe.reduce((a, b) => a + b, 0);
    let acc = 0;
    this.joinEnds = safe.map((d) => (acc += d) / (sum || 1));
  }

  /** Where the work stands now (pure: reads the counters). */
  where(): ProgressWhere {
    const files = this.joinEnds.length;
    const unfinished = (done: number[], weight: number[]) => weight.findIndex((w, i) => done[i] < w);
    const measuring = unfinished(this.measureDone, this.measureWeight);
    if (measuring >= 0) return { stage: 'reading', file: measuring + 1, files };
    if (this.finished || this.remaining() <= 0) return { stage: 'writing', file: files, files };
    const encoding = unfinished(this.transcodeDone, this.transcodeWeight);
    if (encoding >= 0) return { stage: 'encoding', file: encoding + 1, files };
    const joined = this.joinTotal > 0 ? this.joinDone / this.joinTotal : 1;
    const at = this.joinEnds.findIndex((end) => end > joined);
    return { stage: 'encoding', file: at >= 0 ? at + 1 : files, files };
  }

  /** `fraction` (0..1) of input `index`'s measuring decode is done. */
  measure(index: number, fraction: number): void {
    const w = this.measureWeight[index];
    if (w === undefined || w === 0) return;
    this.measureDone[index] = Math.max(this.measureDone[index], clamp01(fraction) * w);
    this.update();
  }

  /** Current whole-number percentage. */
  get percent(): number {
    return Math.max(this.last, 0);
  }

  /** Emit the starting 0. */
  start(): void {
    this.emit(0);
  }

  /** `fraction` (0..1) of input `index`'s transcode is done. */
  transcode(index: number, fraction: number): void {
    const w = this.transcodeWeight[index];
    if (w === undefined || w === 0) return;
    this.transcodeDone[index] = Math.max(this.transcodeDone[index], clamp01(fraction) * w);
    this.update();
  }

  /** The join has written `done` of `total` bytes. */
  join(done: number, total: number): void {
    const fraction = total > 0 ? clamp01(done / total) : 0;
    this.joinDone = Math.max(this.joinDone, fraction * this.joinTotal);
    this.update();
  }

  /** The output is in place: only now does the bar reach 100. */
  complete(): void {
    this.finished = true;
    this.emit(100);
  }

  private totals(): { total: number; done: number } {
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    return {
      total: sum(this.measureWeight) + sum(this.transcodeWeight) + this.joinTotal,
      done: sum(this.measureDone) + sum(this.transcodeDone) + this.joinDone,
    };
  }

  /** Weighted work not done yet (0 once every counter is full). */
  private remaining(): number {
    const { total, done } = this.totals();
    return total - done;
  }

  private update(): void {
    if (this.finished) return;
    const { total, done } = this.totals();
    const raw = total > 0 ? Math.floor((done / total) * 100) : 0;
    this.emit(Math.min(raw, 99));
  }

  /** Tells the percentage when it grows, or the same one when the stage or the file moves on. */
  private emit(p: number): void {
    const where = this.where();
    const key = `${where.stage}:${where.file}`;
    if (p < this.last || (p === this.last && key === this.lastWhere)) return;
    this.last = p;
    this.lastWhere = key;
    this.onPercent(p, where);
  }
}

function clamp01(x: number): number {
  if (!Number.isFinite(x) || x < 0) return 0;
  return x > 1 ? 1 : x;
}
