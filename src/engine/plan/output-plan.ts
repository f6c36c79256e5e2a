// Pure: per output format, the output's rate, channels, bit rate or depth, and per input whether
// it is copied (MP3 frames, AAC packets) or decoded, and whether a lossy encoder touches it.
import type { ProbeResult } from '../types.js';
import { defaultBitRateKbps, isLossy, routeOf, type OutputFormat, type Route } from './formats.js';
import { mpegVersionFor, nearestRate, pickBitRate, planMerge, type ShapeChoice } from './mp3-plan.js';

/** What the MP4 reader found in an AAC input (only AAC-LC in MP4 can be copied). */
export interface AacInfo {
  objectType: number;
  sampleRate: number;
  channels: number;
}

export type OutputPlanInput = Pick<
  ProbeResult,
  'sampleRate' | 'channels' | 'durationSeconds' | 'bitRate' | 'mp3' | 'codec'
> & {
  bitsPerSample?: number;
  aac?: AacInfo;
};

export interface OutputPlan {
  format: OutputFormat;
  route: Route;
  sampleRate: number;
  channels: number;
  /** Lossy outputs: kb/s for every encode. */
  bitRateKbps?: number;
  /** FLAC/WAV: bits per sample written (16 or 24). */
  bitDepth?: 16 | 24;
  /** Per input, in input order: copied as it is (frames, packets) rather than decoded. */
  copy: boolean[];
  /** Indexes of the inputs that go through a lossy encoder. */
  transcoded: number[];
}

export interface PlanChoices extends ShapeChoice {
  /** --bitrate, kb/s. */
  bitRateKbps?: number;
  /** No output rate above this (inputs above it are resampled). */
  maxSampleRate?: number;
  /** No more output channels than this (inputs with more are mixed down). */
  maxChannels?: number;
}

/** The rate and channels an output may have at most: the format's own bound and the caller's cap. */
function capped(shape: Shape, choices: PlanChoices, formatMaxChannels: number): Shape {
  return {
    sampleRate: Math.min(shape.sampleRate, choices.maxSampleRate ?? Number.POSITIVE_INFINITY),
    channels: Math.max(
      1,
      Math.min(shape.channels, formatMaxChannels, choices.maxChannels ?? formatMaxChannels),
    ),
  };
}

/** The rate and channels the caller asked for, held under the caller's caps. */
function wantedShape(choices: PlanChoices): ShapeChoice {
  const { sampleRate, channels, maxSampleRate, maxChannels } = choices;
  return {
    sampleRate: sampleRate === undefined ? undefined : Math.min(sampleRate, maxSampleRate ?? sampleRate),
    channels:
      channels === undefined ? undefined : maxChannels !== undefined && maxChannels < 2 ? 1 : channels,
  };
}

/** Rates the AAC encoder takes (the MPEG-4 sampling-frequency table). */
const AAC_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000];
const LOSSLESS_CODECS = /^(pcm_|flac$|alac$|wavpack$|ape$|tta$|mlp$|truehd$)/;

export const isLosslessCodec = (codec: string): boolean => LOSSLESS_CODECS.test(codec);

interface Shape {
  sampleRate: number;
  channels: number;
}

/**
 * The (rate, channels) most inputs share; a tie goes to the better format (higher rate, then more
 * channels), so a tie never drags everything down to, say, 8 kHz mono.
 */
export function dominantShape(shapes: Shape[], fallback: Shape): Shape {
  const counts = new Map<string, Shape & { n: number }>();
  for (const s of shapes) {
    const key = `${s.sampleRate}/${s.channels}`;
    const c = counts.get(key) ?? { ...s, n: 0 };
    c.n++;
    counts.set(key, c);
  }
  const rank = (a: Shape & { n: number }, b: Shape & { n: number }) =>
    a.n - b.n || a.sampleRate - b.sampleRate || a.channels - b.channels;
  let best: (Shape & { n: number }) | undefined;
  for (const c of counts.values()) if (!best || rank(c, best) > 0) best = c;
  return best ? { sampleRate: best.sampleRate, channels: best.channels } : fallback;
}

const nearestOf = nearestRate;
const stereoAtMost = (c: number) => (c >= 2 ? 2 : 1);
const shapesOf = (inputs: OutputPlanInput[], maxChannels: number) =>
  inputs.map((p) => ({ sampleRate: p.sampleRate, channels: Math.min(p.channels, maxChannels) }));

function bitDepthOf(inputs: OutputPlanInput[]): 16 | 24 {
  const depths = inputs.map((p) => (LOSSLESS_CODECS.test(p.codec) && p.bitsPerSample ? p.bitsPerSample : 16));
  return Math.max(...depths) > 16 ? 24 : 16;
}

function planMp3(inputs: OutputPlanInput[], choices: PlanChoices): OutputPlan {
  const p = planMerge(inputs, wantedShape(choices));
  const bitRateKbps = choices.bitRateKbps
    ? pickBitRate(choices.bitRateKbps, mpegVersionFor(p.sampleRate), p.channels, false)
    : p.bitRateKbps;
  return {
    format: 'mp3',
    route: 'mp3-frames',
    sampleRate: p.sampleRate,
    channels: p.channels,
    bitRateKbps,
    copy: p.copy,
    transcoded: p.transcoded,
  };
}

function copyableAac(p: OutputPlanInput): boolean {
  return (
    p.aac !== undefined &&
    p.aac.objectType === 2 &&
    (p.aac.channels === 1 || p.aac.channels === 2) &&
    AAC_RATES.includes(p.aac.sampleRate)
  );
}

function planMp4(format: OutputFormat, inputs: OutputPlanInput[], choices: PlanChoices): OutputPlan {
  const aac = inputs
    .filter(copyableAac)
    .map((p) => ({ sampleRate: p.aac!.sampleRate, channels: p.aac!.channels }));
  const any = capped(dominantShape(shapesOf(inputs, 2), { sampleRate: 44100, channels: 2 }), choices, 2);
  const maxRate = choices.maxSampleRate ?? Number.POSITIVE_INFINITY;
  const rates = AAC_RATES.filter((r) => r <= Math.max(8000, maxRate));
  const fits = aac.filter((a) => a.sampleRate <= maxRate && a.channels <= (choices.maxChannels ?? 2));
  const found =
    fits.length > 0
      ? dominantShape(fits, any)
      : { sampleRate: nearestOf(rates, any.sampleRate), channels: any.channels };
  const wanted = wantedShape(choices);
  const shape = {
    sampleRate: wanted.sampleRate ? nearestOf(rates, wanted.sampleRate) : found.sampleRate,
    channels: wanted.channels ?? found.channels,
  };
  const copy = inputs.map(
    (p) => copyableAac(p) && p.aac!.sampleRate === shape.sampleRate && p.aac!.channels === shape.channels,
  );
  const bitRateKbps = choices.bitRateKbps ?? defaultBitRateKbps(format, shape.channels);
  return {
    format,
    route: 'mp4-packets',
    ...shape,
    bitRateKbps,
    copy,
    transcoded: copy.flatMap((c, i) => (c ? [] : [i])),
  };
}

function planPcm(format: OutputFormat, inputs: OutputPlanInput[], choices: PlanChoices): OutputPlan {
  const lossy = isLossy(format);
  const any = capped(
    dominantShape(shapesOf(inputs, lossy ? 2 : 8), { sampleRate: 44100, channels: 2 }),
    choices,
    lossy ? 2 : 8,
  );
  // libopus encodes at 48 kHz (or a divisor of it); every Opus decoder plays at 48 kHz.
  const wanted = wantedShape(choices);
  const sampleRate = format === 'opus' ? 48000 : (wanted.sampleRate ?? any.sampleRate);
  const channels = wanted.channels ?? (lossy ? stereoAtMost(any.channels) : any.channels);
  const copy = inputs.map(() => false);
  if (!lossy)
    return {
      format,
      route: 'pcm-encode',
      sampleRate,
      channels,
      bitDepth: bitDepthOf(inputs),
      copy,
      transcoded: [],
    };
  const bitRateKbps = choices.bitRateKbps ?? defaultBitRateKbps(format, channels);
  return {
    format,
    route: 'pcm-encode',
    sampleRate,
    channels,
    bitRateKbps,
    copy,
    transcoded: inputs.map((_, i) => i),
  };
}

export function planOutput(
  format: OutputFormat,
  inputs: OutputPlanInput[],
  choices: PlanChoices = {},
): OutputPlan {
  switch (routeOf(format)) {
    case 'mp3-frames':
      return planMp3(inputs, choices);
    case 'mp4-packets':
      return planMp4(format, inputs, choices);
    default:
      return planPcm(format, inputs, choices);
  }
}
