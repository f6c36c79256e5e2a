import { describe, expect, it } from 'vitest';
import { pickBitRate, planMerge } from './mp3-plan.js';
import type { ProbeResult } from '../types.js';

type In = Pick<ProbeResult, 'sampleRate' | 'channels' | 'durationSeconds' | 'bitRate' | 'mp3'>;

function mp3(sampleRate: number, channels: number, kbps = 128, seconds = 10): In {
  const mpegVersion = sampleRate >= 32000 ? 1 : sampleRate >= 16000 ? 2 : 2.5;
  return {
    sampleRate,
    channels,
    durationSeconds: seconds,
    bitRate: kbps * 1000,
    mp3: {
      mpegVersion,
      layer: 3,
      frames: 100,
      audioBytes: 1000,
      vbr: false,
      samplesPerFrame: mpegVersion === 1 ? 1152 : 576,
    },
  };
}
function other(sampleRate: number, channels: number, seconds = 10): In {
  return { sampleRate, channels, durationSeconds: seconds, bitRate: 1411200 };
}

describe('planning the output', () => {
  it('copies MP3s that share the majority rate and channels, and transcodes the rest', () => {
    const plan = planMerge([
      mp3(44100, 2),
      other(96000, 2),
      mp3(22050, 1),
      mp3(44100, 2),
      mp3(8000, 1),
      other(44100, 2),
    ]);
    expect(plan).toMatchObject({ sampleRate: 44100, channels: 2, mpegVersion: 1, bitRateKbps: 128 });
    expect(plan.copy).toEqual([true, false, false, true, false, false]);
    expect(plan.transcoded).toEqual([1, 2, 4, 5]);
  });

  it('uses 44.1 kHz stereo when no input is an MP3', () => {
    const plan = planMerge([other(48000, 1), other(96000, 2)]);
    expect(plan).toMatchObject({ sampleRate: 44100, channels: 2, bitRateKbps: 128, transcoded: [0, 1] });
  });

  it('breaks a tie in count by the better format, however much longer the other is', () => {
    const plan = planMerge([mp3(22050, 1, 64, 30), mp3(44100, 2, 128, 5)]);
    expect(plan).toMatchObject({ sampleRate: 44100, channels: 2, mpegVersion: 1, transcoded: [0] });
    // 44.1 kHz mono against 8 kHz mono: the higher rate, not the 0.1 s of extra length
    expect(planMerge([mp3(44100, 1, 64, 2.0), mp3(8000, 1, 16, 2.1)])).toMatchObject({
      sampleRate: 44100,
      transcoded: [1],
    });
  });

  it('breaks a tie in count and rate by the channel count', () => {
    const plan = planMerge([
      mp3(44100, 1, 64, 30),
      mp3(44100, 1, 64, 30),
      mp3(44100, 2, 128, 5),
      mp3(44100, 2, 192, 1),
    ]);
    expect(plan).toMatchObject({ sampleRate: 44100, channels: 2, transcoded: [0, 1] });
  });

  it('keeps a mono 22.05 kHz majority and its MPEG-2 bit rate', () => {
    const plan = planMerge([mp3(22050, 1, 48), mp3(22050, 1, 48), mp3(44100, 2, 192)]);
    expect(plan).toMatchObject({
      sampleRate: 22050,
      channels: 1,
      mpegVersion: 2,
      bitRateKbps: 48,
      transcoded: [2],
    });
  });

  it('takes the median bit rate of the matching inputs, rounded to a valid rate', () => {
    const plan = planMerge([mp3(44100, 2, 192), mp3(44100, 2, 256), mp3(44100, 2, 320), mp3(44100, 2, 200)]);
    // median of 192, 200, 256, 320 is 228 -> 224
    expect(plan.bitRateKbps).toBe(224);
  });

  it('never goes below 128 kb/s stereo or 64 kb/s mono at 32 kHz and above', () => {
    expect(planMerge([mp3(44100, 2, 64), other(44100, 2)]).bitRateKbps).toBe(128);
    expect(planMerge([mp3(48000, 1, 32), other(44100, 2)]).bitRateKbps).toBe(64);
  });

  it('picks only bit rates valid for the MPEG version', () => {
    expect(pickBitRate(150, 2, 2)).toBe(144);
    expect(pickBitRate(150, 1, 2)).toBe(160);
    expect(pickBitRate(500, 1, 2)).toBe(320);
    expect(pickBitRate(8, 2.5, 1)).toBe(16);
  });

  it('does not copy MP3s that only ffprobe could read', () => {
    const unreadable = { ...mp3(44100, 2), mp3: undefined };
    const plan = planMerge([mp3(44100, 2), unreadable]);
    expect(plan.transcoded).toEqual([1]);
  });
});
