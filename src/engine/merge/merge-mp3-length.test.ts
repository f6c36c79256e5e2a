// The report's length of an MP3 output is what a decode of it holds: the frames less the encoder
// delay and padding its LAME tag states, and less the decoder's own 529 samples where the padding
// is shorter than those (the last audio then stays in the decoder, never played).
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { mergeFiles } from './merge.js';

const exec = promisify(execFile);

/** Samples of `file` as ffmpeg decodes it (at its own rate, mono). */
async function decodedSamples(file: string): Promise<number> {
  const { stdout } = await exec(tools.ffmpeg, ['-v', 'error', '-i', file, '-ac', '1', '-f', 's16le', '-'], {
    encoding: 'buffer',
    maxBuffer: 64 << 20,
  });
  return (stdout as Buffer).length / 2;
}

const RATES = [8000, 11025, 16000, 22050, 32000, 44100, 48000];

describe('the length an MP3 output is reported', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  /** Two MP3s of `encode` at `rate`, of odd lengths, joined (copied) into one: the report says what decodes. */
  async function reportsDecodedLength(rate: number, encode: string[], name: string) {
    const inputs = await Promise.all(
      [1.37, 2.11].map((seconds, i) =>
        makeTone(path.join(dir, `${name}-${rate}-${i}.mp3`), {
          seconds,
          sampleRate: rate,
          channels: rate < 22050 ? 1 : 2,
          frequency: 300 + 100 * i,
          codecArgs: ['-c:a', 'libmp3lame', ...encode],
        }),
      ),
    );
    const out = path.join(dir, `${name}-${rate}.mp3`);
    const report = await mergeFiles(inputs, out, { tools });
    expect(report.transcoded).toEqual([]);
    expect(report.sampleRate).toBe(rate);
    expect(Math.round(report.durationSeconds * rate)).toBe(await decodedSamples(out));
  }

  it.each(RATES)('CBR and VBR at %i Hz', async (rate) => {
    await reportsDecodedLength(rate, ['-b:a', rate < 32000 ? '32k' : '128k'], 'cbr');
    await reportsDecodedLength(rate, ['-q:a', '5'], 'vbr');
  });

  it('MP3s without a LAME tag', async () => {
    await reportsDecodedLength(44100, ['-b:a', '128k', '-write_xing', '0', '-id3v2_version', '0'], 'bare');
    await reportsDecodedLength(8000, ['-b:a', '16k', '-write_xing', '0'], 'bare');
  });
});
