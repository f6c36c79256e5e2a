// Pure: the sample count a FLAC file states in its STREAMINFO block, which the encoder writes
// after the last frame, so it is the exact length of the stream (0 when the encoder did not know).

/** "fLaC", a metadata block header, and the 34 bytes of STREAMINFO (always the first block). */
export const FLAC_HEAD_BYTES = 42;

/**
 * The total samples (per channel) of a FLAC stream from its first bytes, when the file starts
 * with STREAMINFO at `sampleRate` and states a total; undefined otherwise (a tag before "fLaC",
 * an unknown total, another rate).
 */
export function flacTotalSamples(head: Buffer, sampleRate: number): number | undefined {
  if (head.length < FLAC_HEAD_BYTES || head.toString('latin1', 0, 4) !== 'fLaC') return undefined;
  if ((head[4] & 0x7f) !== 0 || head.readUIntBE(5, 3) < 34) return undefined; // not STREAMINFO
  const info = head.subarray(8);
  const rate = (info[10] << 12) | (info[11] << 4) | (info[12] >> 4);
  if (rate !== sampleRate) return undefined;
  const total = (info[13] & 0x0f) * 2 ** 32 + info.readUInt32BE(14);
  return total > 0 ? total : undefined;
}
