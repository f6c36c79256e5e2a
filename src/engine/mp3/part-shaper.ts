// What the sound options do to one copied MP3 part, frame by frame as the join streams it: the
// gain goes into every frame's global_gain fields, and a trim keeps frames [first, end) of the
// part, led by silent carrier frames (see reservoir.ts) so the first kept frame still decodes.
import { readWord, sideInfoSize, type MpegVersion } from './frames.js';
import { FrameGain } from './gain.js';
import { maxBackstep, ReservoirGuard } from './reservoir.js';

export interface PartSound {
  /** Whole global_gain steps (loudness matching); 0 or absent leaves the frames as they are. */
  gainSteps?: number;
  /** Keep the part's audio frames [first, end) (--trim-silence); all when absent. */
  keep?: { first: number; end: number };
}

export interface Shaped {
  /** Bytes to write ahead of the runs: carrier frames kept from before the cut. */
  prefix?: Buffer;
  /** Runs of buf to write, as pairs of offsets. */
  runs: number[];
}

export class PartShaper {
  /** Audio frames passed so far (the index of the next frame). */
  private index = 0;
  /** Frames written, carriers included. */
  written = 0;
  private readonly gain?: FrameGain;
  private readonly guard: ReservoirGuard;
  private readonly sideInfo: number;
  private readonly backstep: number;
  private readonly first: number;
  private readonly end: number;
  /** Copies of the last frames before `first`, nearest last, holding at most one backstep of data. */
  private ring: Buffer[] = [];
  private ringData = 0;

  constructor(
    version: MpegVersion,
    channels: 1 | 2,
    sound: PartSound,
    private readonly lengthOf: (word: number) => number,
  ) {
    if (sound.gainSteps) this.gain = new FrameGain(version, channels, sound.gainSteps);
    this.guard = new ReservoirGuard(version, channels);
    this.sideInfo = sideInfoSize(version, channels);
    this.backstep = maxBackstep(version);
    this.first = sound.keep?.first ?? 0;
    this.end = sound.keep?.end ?? Infinity;
  }

  /** Global gain fields that could not move by the whole amount. */
  get clamped(): number {
    return this.gain?.clamped ?? 0;
  }

  /** Shape runs of whole frames of buf (pairs of offsets, in stream order); the frames kept are changed in place. */
  shape(buf: Buffer, runs: readonly number[]): Shaped {
    const out: number[] = [];
    let prefix: Buffer | undefined;
    for (let r = 0; r < runs.length; r += 2) {
      let keptFrom = -1;
      for (let pos = runs[r]; pos < runs[r + 1];) {
        const len = this.lengthOf(readWord(buf, pos));
        if (len <= 0) throw new Error(`internal: no frame at ${pos} of a run of frames`);
        const i = this.index++;
        if (i < this.first) {
          this.remember(buf.subarray(pos, pos + len));
        } else if (i < this.end) {
          if (i === this.first && this.first > 0) prefix = this.carriers();
          this.guard.next(buf, pos, len);
          this.gain?.apply(buf, pos);
          this.written++;
          if (keptFrom < 0) keptFrom = pos;
        }
        if (i >= this.end || i < this.first) {
          if (keptFrom >= 0) out.push(keptFrom, pos);
          keptFrom = -1;
        }
        pos += len;
      }
      if (keptFrom >= 0) out.push(keptFrom, runs[r + 1]);
    }
    return prefix ? { prefix, runs: out } : { runs: out };
  }

  private remember(frame: Uint8Array): void {
    this.ring.push(Buffer.from(frame));
    this.ringData += this.mainData(frame);
    while (this.ring.length > 1 && this.ringData - this.mainData(this.ring[0]) >= this.backstep) {
      this.ringData -= this.mainData(this.ring.shift()!);
    }
  }

  private mainData(frame: Uint8Array): number {
    return frame.length - 4 - ((frame[1] & 1) === 0 ? 2 : 0) - this.sideInfo;
  }

  /** The remembered frames, silenced, as one buffer. */
  private carriers(): Buffer {
    const prefix = Buffer.concat(this.ring);
    for (let p = 0, k = 0; k < this.ring.length; p += this.ring[k].length, k++)
      this.guard.next(prefix, p, this.ring[k].length, true);
    this.written += this.ring.length;
    this.ring = [];
    return prefix;
  }
}
