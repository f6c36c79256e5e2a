import { describe, expect, it } from 'vitest';
import { transcodeArgs } from '../ffmpeg/transcode.js';
import type { OutputPlan } from '../plan/output-plan.js';
import { aacSilenceArgs } from '../ffmpeg/aac-silence.js';
import { gapPackets } from './mp4-gap.js';
import {
  gapOnly,
  needsMixing,
  replanForSound,
  splicesAacTrims,
  splicedSeconds,
  splicesFades,
} from './sound-stage.js';

const mp3Plan = (copy: boolean[]): OutputPlan => ({
  format: 'mp3',
  route: 'mp3-frames',
  sampleRate: 44100,
  channels: 2,
  bitRateKbps: 128,
  copy,
  transcoded: copy.flatMap((c, i) => (c ? [] : [i])),
});

describe('which route a crossfade takes', () => {
  it('splices the fades into the copies when every input is a copied MP3', () => {
    const plan = mp3Plan([true, true, true]);
    expect(splicesFades(plan, { crossfade: 1 })).toBe(true);
    expect(needsMixing(plan, { crossfade: 1 })).toBe(false);
    const replanned = replanForSound(plan, { crossfade: 1, loudness: -16 });
    expect(replanned.copy).toEqual([true, true, true]);
    // Only the frames at each fade went through the encoder: the report lists none.
    expect(replanned.transcoded).toEqual([]);
    // The progress bar weighs each join's re-encoded stretch, the fade and a little around it.
    expect(splicedSeconds(3, { crossfade: 1 })).toEqual([1.3, 1.3, 0]);
  });

  it('mixes everything decoded when an input is not a copy, or when --gapless or --trim-silence are on too', () => {
    for (const [plan, o] of [
      [mp3Plan([true, false, true]), { crossfade: 1 }],
      [mp3Plan([true, true]), { crossfade: 1, gapless: true }],
      [mp3Plan([true, true]), { crossfade: 1, trimSilence: true }],
      [{ ...mp3Plan([true, true]), format: 'm4b', route: 'mp4-packets' }, { crossfade: 1 }],
    ] as const) {
      expect(splicesFades(plan, o)).toBe(false);
      expect(needsMixing(plan, o)).toBe(true);
      expect(replanForSound(plan, o).copy.every((c) => !c)).toBe(true);
    }
  });

  it('leaves a join without a crossfade alone', () => {
    const plan = mp3Plan([true, true]);
    expect(splicesFades(plan, { gap: 1 })).toBe(false);
    expect(needsMixing(plan, { gap: 1 })).toBe(false);
    expect(replanForSound(plan, { gap: 1 })).toBe(plan);
  });

  it('asks LAME for frames that borrow no bytes from the frames before them', () => {
    const args = transcodeArgs('in.f32', 'out.mp3', {
      sampleRate: 44100,
      channels: 2,
      bitRateKbps: 128,
      bitReservoir: false,
    });
    expect(args.join(' ')).toContain('-c:a libmp3lame -b:a 128k -reservoir 0');
    expect(
      transcodeArgs('in.wav', 'out.mp3', { sampleRate: 44100, channels: 2, bitRateKbps: 128 }),
    ).not.toContain('-reservoir');
  });
});

describe('a gap between copied AAC inputs', () => {
  const m4b: OutputPlan = { ...mp3Plan([true, true]), format: 'm4b', route: 'mp4-packets' };

  it('keeps AAC copies copied for a gap alone, and decodes them for any other option', () => {
    expect(gapOnly({ gap: 1 })).toBe(true);
    expect(replanForSound(m4b, { gap: 1 })).toBe(m4b);
    for (const o of [{ gap: 1, loudness: -16 }, { gap: 1, trimSilence: true }, { loudness: -16 }]) {
      expect(gapOnly(o)).toBe(false);
      expect(replanForSound(m4b, o).copy).toEqual([false, false]);
    }
  });

  it('is whole packets of silence, the nearest count to the asked length', () => {
    expect(gapPackets(1.5, 44100)).toBe(65);
    expect(Math.abs((gapPackets(1.5, 44100) * 1024) / 44100 - 1.5)).toBeLessThanOrEqual(512 / 44100);
    expect(gapPackets(0, 44100)).toBe(0);
    expect(
      aacSilenceArgs('gap.m4a', { sampleRate: 48000, channels: 1, bitRateKbps: 64 }, 2).join(' '),
    ).toContain('-f lavfi -i anullsrc=r=48000:cl=mono -t 2.000000 -c:a aac -b:a 64k -ar 48000 -ac 1');
  });
});

describe('which route a trim takes', () => {
  const trims = [undefined, { start: 1, end: 2 }];

  it('splices trimmed copied MP3s at the sample when every input is a copy', () => {
    const plan = mp3Plan([true, true]);
    expect(splicesFades(plan, { trims })).toBe(true);
    expect(splicesFades(plan, { trims, trimSilence: true })).toBe(true);
    expect(splicesFades(plan, { trims, gapless: true })).toBe(false);
    expect(replanForSound(plan, { trims }).copy).toEqual([true, true]);
  });

  it('decodes a trimmed MP3 copy when another input is decoded anyway, the rest stay copied', () => {
    const plan = mp3Plan([true, true, false]);
    const replanned = replanForSound(plan, { trims: [...trims, undefined] });
    expect(replanned.copy).toEqual([true, false, false]);
    expect(replanned.transcoded).toEqual([1, 2]);
  });

  it('keeps trimmed AAC copies copied when trims are the only sound option and every input is a copy', () => {
    const plan: OutputPlan = {
      ...mp3Plan([true, true]),
      format: 'm4b',
      route: 'mp4-packets',
      transcoded: [],
    };
    expect(splicesAacTrims(plan, { trims })).toBe(true);
    expect(replanForSound(plan, { trims })).toEqual({ ...plan, transcoded: [] });
    expect(splicesAacTrims(plan, {})).toBe(false);
  });

  it('decodes trimmed AAC copies whole when another option changes their sound or another input is decoded', () => {
    const plan: OutputPlan = {
      ...mp3Plan([true, true]),
      format: 'm4b',
      route: 'mp4-packets',
      transcoded: [],
    };
    for (const other of [
      { gap: 1 },
      { loudness: -16 },
      { crossfade: 1 },
      { trimSilence: true },
      { gapless: true },
    ]) {
      expect(splicesAacTrims(plan, { trims, ...other })).toBe(false);
      expect(replanForSound(plan, { trims, ...other }).copy).toEqual([false, false]);
    }
    const mixed: OutputPlan = { ...plan, copy: [true, false], transcoded: [1] };
    expect(replanForSound(mixed, { trims: [{ start: 1, end: 2 }, undefined] }).copy).toEqual([false, false]);
    expect(gapOnly({ gap: 1, trims })).toBe(false);
  });
});
