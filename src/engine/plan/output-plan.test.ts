import { describe, expect, it } from 'vitest';
import { dominantShape, planOutput, type OutputPlanInput } from './output-plan.js';

const mp3 = (sampleRate = 44100, channels = 2): OutputPlanInput => ({
  codec: 'mp3',
  sampleRate,
  channels,
  durationSeconds: 10,
  bitRate: 128000,
  mp3: { mpegVersion: 1, layer: 3, frames: 383, audioBytes: 160000, vbr: false, samplesPerFrame: 1152 },
});
const aac = (sampleRate = 44100, channels = 2, objectType = 2): OutputPlanInput => ({
  codec: 'aac',
  sampleRate,
  channels,
  durationSeconds: 10,
  bitRate: 128000,
  aac: { objectType, sampleRate, channels },
});
const pcm = (sampleRate = 44100, channels = 2, bitsPerSample = 16): OutputPlanInput => ({
  codec: bitsPerSample === 24 ? 'pcm_s24le' : 'pcm_s16le',
  sampleRate,
  channels,
  durationSeconds: 10,
  bitRate: 0,
  bitsPerSample,
});
const opus = (): OutputPlanInput => ({
  codec: 'opus',
  sampleRate: 48000,
  channels: 2,
  durationSeconds: 10,
  bitRate: 64000,
});

describe('the output planner', () => {
  it('keeps the MP3 frame join: matching MP3s copied, the rest encoded', () => {
    const p = planOutput('mp3', [mp3(), pcm(), mp3(), mp3(22050, 1)]);
    expect(p).toMatchObject({
      route: 'mp3-frames',
      sampleRate: 44100,
      channels: 2,
      copy: [true, false, true, false],
      transcoded: [1, 3],
      bitRateKbps: 128,
    });
  });

  it('takes --bitrate for MP3 encodes as the nearest valid rate, below the usual floor too', () => {
    expect(planOutput('mp3', [pcm()], { bitRateKbps: 100 }).bitRateKbps).toBe(96);
    expect(planOutput('mp3', [pcm()], { bitRateKbps: 32 }).bitRateKbps).toBe(32);
  });

  it('copies AAC-LC inputs of the M4B rate and channels, and encodes the others', () => {
    const p = planOutput('m4b', [aac(), mp3(), aac(48000), aac(), aac(44100, 2, 5)]);
    expect(p).toMatchObject({
      route: 'mp4-packets',
      sampleRate: 44100,
      channels: 2,
      copy: [true, false, false, true, false],
      transcoded: [1, 2, 4],
      bitRateKbps: 128,
    });
  });

  it("gives an M4B without AAC inputs the inputs' own rate, and mono 64 kb/s when most are mono", () => {
    expect(planOutput('m4a', [pcm(48000, 1), pcm(48000, 1), mp3()])).toMatchObject({
      sampleRate: 48000,
      channels: 1,
      bitRateKbps: 64,
      transcoded: [0, 1, 2],
    });
    expect(planOutput('m4b', [pcm(44100, 6)], { bitRateKbps: 96 })).toMatchObject({
      channels: 2,
      bitRateKbps: 96,
    });
  });

  it('encodes every input once for Opus (48 kHz) and Vorbis, all of them lossy', () => {
    expect(planOutput('opus', [mp3(), pcm(22050, 1), pcm(22050, 1)])).toMatchObject({
      route: 'pcm-encode',
      sampleRate: 48000,
      channels: 1,
      transcoded: [0, 1, 2],
      bitRateKbps: 48,
    });
    expect(planOutput('ogg', [opus(), mp3()])).toMatchObject({
      sampleRate: 48000,
      channels: 2,
      transcoded: [0, 1],
      bitRateKbps: 160,
    });
  });

  it('keeps FLAC and WAV lossless: nothing transcoded, 24 bits when a lossless input has more than 16', () => {
    expect(planOutput('flac', [pcm(), mp3(), opus()])).toMatchObject({
      bitDepth: 16,
      transcoded: [],
      copy: [false, false, false],
    });
    expect(planOutput('wav', [pcm(), pcm(96000, 2, 24)])).toMatchObject({ bitDepth: 24, sampleRate: 96000 });
    expect(planOutput('flac', [pcm(44100, 6), pcm(44100, 6)]).channels).toBe(6);
    expect(planOutput('flac', [pcm(), { ...pcm(), codec: 'pcm_s32le', bitsPerSample: 32 }]).bitDepth).toBe(
      24,
    );
  });

  it("caps the output at a server's rate and channels, whatever the inputs carry", () => {
    const caps = { maxSampleRate: 96000, maxChannels: 2 };
    expect(planOutput('wav', [pcm(192000, 8, 24), pcm(192000, 8, 24)], caps)).toMatchObject({
      sampleRate: 96000,
      channels: 2,
    });
    expect(planOutput('flac', [pcm(1_000_000, 8)], caps)).toMatchObject({ sampleRate: 96000, channels: 2 });
    expect(planOutput('flac', [pcm(44100, 1)], caps)).toMatchObject({ sampleRate: 44100, channels: 1 });
    // AAC at 96 kHz is copied under a 96 kHz cap, resampled under a 48 kHz one.
    expect(planOutput('m4b', [aac(96000), aac(96000)], caps)).toMatchObject({
      sampleRate: 96000,
      copy: [true, true],
    });
    expect(planOutput('m4b', [aac(96000), aac(96000)], { maxSampleRate: 48000 })).toMatchObject({
      sampleRate: 48000,
      copy: [false, false],
    });
    expect(planOutput('wav', [pcm(48000, 6)], { maxChannels: 1 }).channels).toBe(1);
    // Without caps, the inputs' own shape.
    expect(planOutput('wav', [pcm(192000, 8)])).toMatchObject({ sampleRate: 192000, channels: 8 });
  });

  it('writes the rate and channels asked for, held under the caps', () => {
    const caps = { maxSampleRate: 48000, maxChannels: 1 };
    expect(planOutput('flac', [pcm(44100, 2)], { sampleRate: 96000, channels: 2, ...caps })).toMatchObject({
      sampleRate: 48000,
      channels: 1,
    });
    expect(planOutput('flac', [pcm(44100, 2)], { sampleRate: 22050, channels: 1 })).toMatchObject({
      sampleRate: 22050,
      channels: 1,
    });
    // A mono 22.05 kHz speech book from 44.1 kHz stereo MP3s: nothing can be copied.
    expect(planOutput('mp3', [mp3(), mp3()], { sampleRate: 22050, channels: 1 })).toMatchObject({
      sampleRate: 22050,
      channels: 1,
      copy: [false, false],
    });
    // An MP4 rate the encoder does not take becomes the nearest one it does, under the cap.
    expect(planOutput('m4b', [aac()], { sampleRate: 47000, maxSampleRate: 32000 })).toMatchObject({
      sampleRate: 32000,
    });
  });

  it('breaks a tie in count by the better shape', () => {
    expect(
      dominantShape(
        [
          { sampleRate: 8000, channels: 1 },
          { sampleRate: 44100, channels: 2 },
        ],
        { sampleRate: 1, channels: 1 },
      ),
    ).toEqual({ sampleRate: 44100, channels: 2 });
    expect(dominantShape([], { sampleRate: 44100, channels: 2 })).toEqual({ sampleRate: 44100, channels: 2 });
  });
});
