// FLAC files whose STREAMINFO states another length than their frames hold, made from real ones.
import { readFile, writeFile } from 'node:fs/promises';

/** Rewrite a FLAC's STREAMINFO total-samples field: its header then claims another length (0: unknown). */
export async function flacClaiming(src: string, out: string, totalSamples: number): Promise<void> {
  const bytes = await readFile(src);
  // "fLaC", a 4-byte block header, then STREAMINFO: total samples are its bits 108-143.
  bytes[21] = (bytes[21] & 0xf0) | Math.floor(totalSamples / 2 ** 32);
  bytes.writeUInt32BE(totalSamples % 2 ** 32, 22);
  await writeFile(out, bytes);
}
