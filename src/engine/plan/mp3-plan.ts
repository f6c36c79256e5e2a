// Pure: decide the output's parameters and which inputs are copied frame by frame.
import type { ProbeResult } from '../types.js';

export interface Plan {
  sampleRate: number;
  channels: 1 | 2;
  mpegVersion: 1 | 2 | 2.5;
  /** Target bit rate for transcodes, kb/s, valid for mpegVersion. */
  bitRateKbps: number;
  /** Per input, in input order: true when its MP3 frames are copied as they are. */
  copy: boolean[];
  /** Indexes of the inputs that must be re-encoded. */
  transcoded: number[];
}

type PlanInput = Pick<ProbeResult, 'sampleRate' | 'channels' | 'durationSeconds' | 'bitRate' | 'mp3'>;

const MPEG1_KBPS = [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG2_KBPS = [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

/** MPEG version implied by an MP3 sample rate. */
export function mpegVersionFor(sampleRate: number): 1 | 2 | 2.5 {
  if (sampleRate >= 32000) return 1;
  if (sampleRate >= 16000) return 2;
  return 2.5;
}

export function validBitRates(version: 1 | 2 | 2.5): number[] {
  return version === 1 ? MPEG1_KBPS : MPEG2_KBPS;
}

// Floors keep transcoded speech and music listenable; lower-rate MPEG versions carry less. With
// no MP3 to match, the floor is the rate: what ffmpeg users expect, and the same work as theirs.
function floorKbps(version: 1 | 2 | 2.5, channels: 1 | 2): number {
  if (version === 1) return channels === 2 ? 128 : 64;
  if (version === 2) return channels === 2 ? 64 : 32;
  return channels === 2 ? 32 : 16;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The valid bit rate nearest to `kbps` (the higher one on a tie), but not below the floor unless `floor` is false (a rate the user asked for). */
export function pickBitRate(kbps: number, version: 1 | 2 | 2.5, channels: 1 | 2, floor = true): number {
  const valid = validBitRates(version);
  let best = valid[0];
  for (const v of valid) if (Math.abs(v - kbps) <= Math.abs(best - kbps)) best = v;
  return floor ? Math.max(best, floorKbps(version, channels)) : best;
}

function isMp3(p: PlanInput): boolean {
  return p.mp3 !== undefined && p.mp3.layer === 3 && (p.channels === 1 || p.channels === 2);
}

interface Group {
  sampleRate: number;
  channels: 1 | 2;
  count: number;
}

/** > 0 when `a` should set the output format rather than `b`. */
function compareGroups(a: Group, b: Group): number {
  return a.count - b.count || a.sampleRate - b.sampleRate || a.channels - b.channels;
}

/** Rates an MP3 can have (MPEG 1, 2 and 2.5). */
export const MP3_RATES = [48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000];

/** The output's rate or channels when the caller sets them. */
export interface ShapeChoice {
  sampleRate?: number;
  channels?: 1 | 2;
}

/** The rate in `rates` nearest to `r` (the higher on a tie). */
export const nearestRate = (rates: number[], r: number): number =>
  rates.reduce((a, b) =>
    Math.abs(b - r) < Math.abs(a - r) || (Math.abs(b - r) === Math.abs(a - r) && b > a) ? b : a,
  );

export function planMerge(inputs: PlanInput[], choice: ShapeChoice = {}): Plan {
  // Group the MP3 inputs by (rate, channels): the largest group by count wins. On a tie the
  // better-sounding format wins (higher rate, then more channels), so a tie never drags
  // everything down to, say, 8 kHz mono because those files ran a little longer.
  const groups = new Map<string, Group>();
  for (const p of inputs) {
    if (!isMp3(p)) continue;
    const key = `${p.sampleRate}/${p.channels}`;
    const g = groups.get(key) ?? { sampleRate: p.sampleRate, channels: p.channels as 1 | 2, count: 0 };
    g.count++;
    groups.set(key, g);
  }
  let chosen: { sampleRate: number; channels: 1 | 2 } = { sampleRate: 44100, channels: 2 };
  let bestGroup: Group | undefined;
  for (const g of groups.values()) {
    const better = !bestGroup || compareGroups(g, bestGroup) > 0;
    if (better) {
      bestGroup = g;
      chosen = g;
    }
  }

  const sampleRate = choice.sampleRate ? nearestRate(MP3_RATES, choice.sampleRate) : chosen.sampleRate;
  const channels = choice.channels ?? chosen.channels;
  const mpegVersion = mpegVersionFor(sampleRate);
  const copy = inputs.map((p) => isMp3(p) && p.sampleRate === sampleRate && p.channels === channels);
  const matchingRates = inputs.filter((_, i) => copy[i]).map((p) => p.bitRate);
  const bitRateKbps =
    matchingRates.length > 0
      ? pickBitRate(median(matchingRates) / 1000, mpegVersion, channels)
      : floorKbps(mpegVersion, channels);
  const transcoded = copy.flatMap((c, i) => (c ? [] : [i]));
  return { sampleRate, channels, mpegVersion, bitRateKbps, copy, transcoded };
}
