// Pure progress arithmetic: each input weighs by its duration, once for transcoding (when it is
// re-encoded) and once for joining; the percentage is whole, never goes back, and is 100 only
// when the caller says the output is complete.
import type { ProgressWeights } from './progress-weights.js';

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
  /** Called only when the whole-number percentage changes. */
  onPercent?: (percent: number) => void;
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
  private readonly onPercent: (percent: number) => void;
  private joinDone = 0;
  private last = -1;
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

  private update(): void {
    if (this.finished) return;
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const total = sum(this.measureWeight) + sum(this.transcodeWeight) + this.joinTotal;
    const done = sum(this.measureDone) + sum(this.transcodeDone) + this.joinDone;
    const raw = total > 0 ? Math.floor((done / total) * 100) : 0;
    this.emit(Math.min(raw, 99));
  }

  private emit(p: number): void {
    if (p <= this.last) return;
    this.last = p;
    this.onPercent(p);
  }
}

function clamp01(x: number): number {
  if (!Number.isFinite(x) || x < 0) return 0;
  return x > 1 ? 1 : x;
}
