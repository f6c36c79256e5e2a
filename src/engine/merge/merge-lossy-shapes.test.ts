// Every rate and channel count people's files have, into Ogg Vorbis and Opus: libvorbis refuses
// most bit rates away from 44.1 and 48 kHz (an 8 kHz MP3 into Ogg once failed at the encoder's
// start), libopus more than 256 kb/s a channel.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeErrors, ffprobeJson, makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { mergeFiles } from './merge.js';

/**
 * A decode's errors, less the 2018 npm ffmpeg's complaint about its own 8 kb/s Opus (a plain
 * `ffmpeg -c:a libopus -b:a 8k` of its own says it too): the null muxer's timestamps, not the audio.
 */
async function cleanDecode(file: string): Promise<string> {
  const lines = (await decodeErrors(file)).split('\n');
  return lines.filter((l) => l && !/non monotonically increasing dts to muxer/.test(l)).join('\n');
}

const RATES = [8000, 11025, 16000, 22050, 32000, 44100, 48000, 96000];

describe('lossy outputs at every rate and channel count', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  /** Merge two copies of `input` into `format`; it must decode cleanly at the expected shape and length. */
  async function mergesInto(
    input: string,
    format: 'ogg' | 'opus',
    rate: number,
    channels: number,
    kbps?: number,
  ) {
    const out = path.join(dir, `${path.basename(input)}-${kbps ?? 'default'}.${format}`);
    const report = await mergeFiles([input, input], out, { tools, bitRateKbps: kbps });
    expect(report.channels).toBe(channels);
    expect(report.sampleRate).toBe(format === 'opus' ? 48000 : rate);
    const stream = (await ffprobeJson(out)).streams.find((s) => s.codec_type === 'audio')!;
    expect(stream.codec_name).toBe(format === 'opus' ? 'opus' : 'vorbis');
    expect(Number(stream.sample_rate)).toBe(format === 'opus' ? 48000 : rate);
    expect(stream.channels).toBe(channels);
    expect(await cleanDecode(out)).toBe('');
    expect(report.durationSeconds).toBeCloseTo(1.2, 2);
  }

  for (const channels of [1, 2])
    it.each(RATES)(`${channels === 1 ? 'mono' : 'stereo'} WAV at %i Hz into Ogg and Opus`, async (rate) => {
      const input = await makeTone(path.join(dir, `in-${rate}-${channels}.wav`), {
        seconds: 0.6,
        sampleRate: rate,
        channels,
        frequency: Math.min(440, rate / 8),
      });
      await mergesInto(input, 'ogg', rate, channels);
      await mergesInto(input, 'opus', rate, channels);
    });

  it('takes the lowest and highest --bitrate at 8 kHz mono and 96 kHz stereo', async () => {
    const low = await makeTone(path.join(dir, 'low.wav'), {
      seconds: 0.6,
      sampleRate: 8000,
      channels: 1,
      frequency: 300,
    });
    const high = await makeTone(path.join(dir, 'high.wav'), { seconds: 0.6, sampleRate: 96000, channels: 2 });
    for (const kbps of [8, 320]) {
      for (const format of ['ogg', 'opus'] as const) {
        await mergesInto(low, format, 8000, 1, kbps);
        await mergesInto(high, format, 96000, 2, kbps);
      }
    }
  });

  it('joins an 8 kHz MP3, and a 22.05 kHz mono AAC, into Ogg', async () => {
    const mp3 = await makeTone(path.join(dir, 'speech.mp3'), {
      seconds: 0.6,
      sampleRate: 8000,
      channels: 1,
      frequency: 300,
      codecArgs: ['-c:a', 'libmp3lame', '-b:a', '16k'],
    });
    const aac = await makeTone(path.join(dir, 'mono.m4a'), { seconds: 0.6, sampleRate: 22050, channels: 1 });
    for (const [input, rate] of [
      [mp3, 8000],
      [aac, 22050],
    ] as const) {
      const out = path.join(dir, `${path.basename(input)}.ogg`);
      const report = await mergeFiles([input, input], out, { tools });
      expect(report.sampleRate).toBe(rate);
      expect(await decodeErrors(out)).toBe('');
    }
  });
});
