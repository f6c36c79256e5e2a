// Layer III frames borrow bytes from the frames before them (the bit reservoir: main_data_begin
// says how far back a frame's data starts). A stream cut at a frame other than its first (trimmed
// silence) starts with frames whose data lies partly in frames no longer there; decoders then
// decode them wrongly or drop them. A cut therefore keeps a few frames before the first one wanted
// as silent carriers: their side information zeroed (no audio), their bytes kept as the reservoir
// the wanted frames read. The guard also silences any frame that still reaches too far back.
import { frameCrc } from './gain.js';
import { sideInfoSize, type MpegVersion } from './frames.js';

/** main_data_begin of the frame at `pos`: 9 bits in MPEG-1, 8 bits in MPEG-2/2.5. */
export function mainDataBegin(buf: Uint8Array, pos: number, version: MpegVersion): number {
  const at = pos + 4 + ((buf[pos + 1] & 1) === 0 ? 2 : 0);
  return version === 1 ? (buf[at] << 1) | (buf[at + 1] >>> 7) : buf[at];
}

export class ReservoirGuard {
  /** Frames turned silent because their data lay before the cut. */
  silenced = 0;
  private available = 0;
  private readonly side: number;

  constructor(
    private readonly version: MpegVersion,
    channels: 1 | 2,
  ) {
    this.side = sideInfoSize(version, channels);
  }

  /**
   * Check (and if need be silence) the next frame of the cut stream: buf[pos, pos + length).
   * `carrier`: a frame kept only for its bytes, always silenced.
   */
  next(buf: Uint8Array, pos: number, length: number, carrier = false): void {
    const crc = (buf[pos + 1] & 1) === 0 ? 2 : 0;
    if (carrier || mainDataBegin(buf, pos, this.version) > this.available) {
      buf.fill(0, pos + 4 + crc, pos + 4 + crc + this.side);
      if (crc) {
        const c = frameCrc(buf, pos, this.side);
        buf[pos + 4] = c >>> 8;
        buf[pos + 5] = c & 0xff;
      }
      this.silenced++;
    }
    this.available += length - 4 - crc - this.side;
  }
}

/** The furthest back a frame's data may start: 511 bytes in MPEG-1, 255 in MPEG-2/2.5. */
export function maxBackstep(version: MpegVersion): number {
  return version === 1 ? 511 : 255;
}
