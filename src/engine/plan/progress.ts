// Pure progress arithmetic: each input weighs by its duration, once for transcoding (when it is
// re-encoded) and once for joining; the percentage is whole, never goes back, and is 100 only
// when the caller says the output is complete.

/**
 * Re-encoding a second of audio costs far more than copying its frames; this ratio keeps the bar
 * moving at a roughly even pace through both phases.
 */
export const JOIN_WEIGHT = 0.05;

/**
 * Measuring an input (loudness, true peak, silences) is one decode with no encode: about a third
 * of a transcode of the same audio on this ffmpeg (the true-peak oversampling is most of it).
 */
export const MEASURE_WEIGHT = 0.3;

export class ProgressTracker {
  private readonly transcodeWeight: number[];
  private readonly transcodeDone: number[];
  private readonly joinTotal: number;
  private readonly measureWeight: number[];
  private readonly measureDone: number[];
  private joinDone = 0;
  private last = -1;
  private finished = false;

  /**
   * @param durations seconds per input, in input order
   * @param transcoded indexes of the inputs that are re-encoded
   * @param onPercent called only when the whole-number percentage changes
   * @param joinWeight the last phase's cost per second of audio, against one transcode's (a
   *   final encode of every input costs about as much as the decodes before it)
   * @param measured indexes of the inputs measured first (the sound options)
   * @param measureWeight a second of measuring against one of transcoding (progress-weights.ts)
   * @param encodedSeconds per input, the seconds of it that are re-encoded when that is not all of
   *   it (a crossfade spliced into copied frames re-encodes only around the fade)
   */
  constructor(
    durations: number[],
    transcoded: readonly number[],
    private readonly onPercent: (percent: number) => void = () => {},
    joinWeight = JOIN_WEIGHT,
    measured: readonly number[] = [],
    measureWeight = MEASURE_WEIGHT,
    encodedSeconds: readonly number[] = [],
  ) {
    const safe = durations.map((d) => (Number.isFinite(d) && d > 0 ? d : 0));
    const re = new Set(transcoded);
    this.transcodeWeight = safe.map((d, i) => (re.has(i) ? Math.min(d, encodedSeconds[i] ?? d) : 0));
    this.transcodeDone = safe.map(() => 0);
    this.joinTotal = safe.reduce((a, b) => a + b, 0) * joinWeight;
    const m = new Set(measured);
    this.measureWeight = safe.map((d, i) => (m.has(i) ? d * measureWeight : 0));
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
