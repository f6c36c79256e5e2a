import { describe, expect, it } from 'vitest';
import { createDiskBudget, DiskFullError, estimateMergeBytes } from './disk-budget.js';

const MB = 1024 * 1024;

describe('the disk budget', () => {
  it('counts what merges and uploads hold as written, and keeps MIN_FREE_MB free', async () => {
    let uploads = 0;
    const budget = createDiskBudget({
      dir: '/x',
      minFreeBytes: 64 * MB,
      freeSpace: async () => 200 * MB,
      heldByUploads: () => uploads,
    });
    expect(await budget.fits(136 * MB)).toBe(true);
    expect(await budget.fits(137 * MB)).toBe(false);
    const release = await budget.reserve(100 * MB);
    expect(budget.reservedByMerges).toBe(100 * MB);
    uploads = 30 * MB;
    expect(await budget.fits(6 * MB)).toBe(true);
    expect(await budget.fits(7 * MB)).toBe(false);
    release();
    release();
    expect(budget.reservedByMerges).toBe(0);
  });

  it('makes a merge wait for room another holds, and refuses at once one that could never fit', async () => {
    const budget = createDiskBudget({
      dir: '/x',
      minFreeBytes: 0,
      freeSpace: async () => 100,
      recheckMs: 60_000,
    });
    const first = await budget.reserve(80);
    let second: (() => void) | undefined;
    const waiting = budget.reserve(50).then((r) => (second = r));
    await new Promise((r) => setTimeout(r, 20));
    expect(second).toBeUndefined();
    await expect(budget.reserve(181)).rejects.toBeInstanceOf(DiskFullError);
    first();
    await waiting;
    expect(budget.reservedByMerges).toBe(50);
    const stop = new AbortController();
    const aborted = budget.reserve(60, stop.signal);
    stop.abort();
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('a merge estimate', () => {
  const item = (duration: number, sampleRate = 44100, channels = 2, size = duration * 16_000) => ({
    duration,
    sampleRate,
    channels,
    size,
  });
  const base = {
    format: 'mp3',
    mixed: false,
    gapSeconds: 0,
    maxSampleRate: 96000,
    maxChannels: 2,
    copiesInputs: false,
  };

  it('counts each use, at the capped rate and channels, and the widest scratch a route keeps', () => {
    const hiRes = item(600, 192000, 8, 250_000);
    const wav = estimateMergeBytes({ ...base, format: 'wav', inputs: [hiRes, hiRes] });
    // 1200 s at 96 kHz stereo: 24-bit output and 32-bit float scratch.
    expect(wav).toBe(1200 * 96000 * 2 * (3 + 4));
    const mp3 = estimateMergeBytes({ ...base, inputs: [item(100)] });
    expect(mp3).toBe(2 * 100 * 40_000);
    const faded = estimateMergeBytes({ ...base, mixed: true, inputs: [item(100)] });
    expect(faded - mp3).toBe(2 * 100 * 44100 * 2 * 4);
    const gaps = estimateMergeBytes({ ...base, gapSeconds: 10, inputs: [item(100), item(100)] });
    expect(gaps).toBe(2 * 210 * 40_000);
    const copied = estimateMergeBytes({ ...base, copiesInputs: true, inputs: [hiRes, hiRes] });
    expect(copied - estimateMergeBytes({ ...base, inputs: [hiRes, hiRes] })).toBe(250_000);
  });
});
