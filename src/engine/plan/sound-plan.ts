// Pure: what the sound options do to each input and each join, from what the planner decided
// (copy or decode) and what the measuring decode found. Copied MP3s stay copied: their gain moves
// in global_gain steps and their trim in whole frames; decoded inputs take both in their filters.
import type { Measurement } from '../ffmpeg/loudness.js';
import { fitCrossfade, inputStarts, shortenedMessage, type FadeFit } from './crossfade.js';
import { chooseGain, limitedMessage, needsLimiter, type GainChoice } from './loudness-plan.js';
import type { SoundOptions } from '../../shared/sound-options.js';
import { keepFrames, keepRange, type KeepRange } from './trim-silence.js';

/**
 * The sound options with the trims: per input (index-aligned), the span of its decoded audio kept,
 * in seconds; undefined for an input used whole.
 */
export interface SoundSettings extends SoundOptions {
  trims?: ReadonlyArray<KeepRange | undefined>;
}

/** Whether any input is trimmed. */
export function trimmed(o: SoundSettings): boolean {
  return o.trims?.some((t) => t !== undefined) ?? false;
}

/** MP3 decoders' own delay: ffmpeg skips it with the encoder delay of a LAME tag. */
const DECODER_DELAY = 529;

export interface SoundPlanInput {
  /** For messages. */
  name: string;
  /** Decoded duration, seconds. */
  durationSeconds: number;
  /** The format planner copies it (MP3 frames, AAC packets). */
  copy: boolean;
  /** Its copy is MP3 frames (the only copy the sound options can shape without a decode). */
  mp3Copy: boolean;
  /** Decoded, it goes through a lossy encoder (the output is lossy). */
  lossyOutput: boolean;
  /** Copied MP3s: the frame format and the LAME tag's encoder delay, when there is one. */
  mp3?: { frames: number; samplesPerFrame: number; sampleRate: number; encoderDelay?: number };
}

export interface InputSoundPlan {
  /** Still copied after the sound options (a crossfade or --gapless decodes it). */
  copy: boolean;
  gain?: GainChoice;
  /** Decoded inputs, and MP3 copies spliced at the sample: the seconds kept (trim, --trim-silence). */
  keep?: KeepRange;
  /** Copied MP3s: the frames kept by --trim-silence. */
  keepFrames?: { first: number; end: number };
  /** Seconds this input lasts in the output, before any gap or fade. */
  durationSeconds: number;
}

export interface LoudnessEntry {
  input: number;
  /** Integrated loudness as measured, LUFS; null for digital silence. */
  measured: number | null;
  gainDb: number;
  /** The -1 dBTP ceiling held the gain below what the target asked for. */
  limited?: boolean;
  /** The whole gain was applied with a true-peak limiter keeping the peaks under the ceiling. */
  limiter?: boolean;
}

export interface SoundPlan {
  inputs: InputSoundPlan[];
  /** Seconds of silence after each input but the last. */
  gap: number;
  /** One per join (inputs - 1); all zero without --crossfade. */
  fades: FadeFit[];
  /** Where each input starts in the output, seconds (chapters start here). */
  starts: number[];
  loudness?: LoudnessEntry[];
  /** Lines for stderr and the report: shortened fades, limited gains. */
  messages: string[];
}

/** Whether the inputs must be measured (loudness, silences) before anything is written. */
export function needsMeasuring(o: SoundOptions): boolean {
  return o.loudness !== undefined || o.trimSilence === true;
}

/** Options that need every input decoded: a fade mixes two inputs, gapless drops encoder padding. */
export function decodesEverything(o: SoundOptions): boolean {
  return (o.crossfade ?? 0) > 0 || o.gapless === true;
}

/**
 * The seconds of input kept: its trim, and inside it what --trim-silence keeps (the measuring
 * decode of a trimmed input saw only its span, so its silences are counted from the trim's start).
 */
export function keptRange(
  trim: KeepRange | undefined,
  m: Measurement | undefined,
  trimSilence: boolean,
  durationSeconds: number,
): KeepRange | undefined {
  if (!trimSilence || !m) return trim;
  if (!trim) return keepRange(m.silences, m.decodedSeconds || durationSeconds);
  const inner = keepRange(m.silences, trim.end - trim.start);
  return { start: trim.start + inner.start, end: trim.start + inner.end };
}

/** How one input is planned: copied still, its trim, and whether a copied MP3 is cut at the sample. */
interface InputWay {
  copy: boolean;
  trim: KeepRange | undefined;
  atSample: boolean;
}

function planInput(
  input: SoundPlanInput,
  m: Measurement | undefined,
  o: SoundSettings,
  { copy: copied, trim, atSample }: InputWay,
): InputSoundPlan {
  // A copied MP3 whose peaks keep whole steps from the target is decoded, to be limited.
  const limits =
    o.loudness !== undefined && m !== undefined && needsLimiter(m, o.loudness, input.lossyOutput);
  const copy = copied && !(limits && input.mp3Copy);
  const mp3Copy = copy && input.mp3Copy && input.mp3 !== undefined;
  const plan: InputSoundPlan = { copy, durationSeconds: input.durationSeconds };
  if (o.loudness !== undefined && m) {
    plan.gain = chooseGain(m, o.loudness, { mp3Steps: mp3Copy, lossyEncode: !copy && input.lossyOutput });
  }
  const range = keptRange(trim, m, o.trimSilence === true, input.durationSeconds);
  if (range) {
    if (mp3Copy && !atSample) {
      const { frames, samplesPerFrame, sampleRate, encoderDelay } = input.mp3!;
      const delay = encoderDelay !== undefined ? (encoderDelay + DECODER_DELAY) / sampleRate : 0;
      plan.keepFrames = keepFrames(range, samplesPerFrame / sampleRate, frames, delay);
      plan.durationSeconds = ((plan.keepFrames.end - plan.keepFrames.first) * samplesPerFrame) / sampleRate;
    } else {
      plan.keep = range;
      plan.durationSeconds = range.end - range.start;
    }
  }
  return plan;
}

/**
 * `decodeAll`: the options decode every input after all (false when fades are spliced into
 * copies); `atSample`: copied MP3s are spliced at the sample (their kept range in seconds), else
 * --trim-silence cuts them at whole frames.
 */
export function planSound(
  inputs: readonly SoundPlanInput[],
  measured: ReadonlyArray<Measurement | undefined>,
  o: SoundSettings,
  decodeAll = decodesEverything(o),
  atSample = false,
): SoundPlan {
  const planned = inputs.map((p, i) =>
    planInput(p, measured[i], o, { copy: p.copy && !decodeAll, trim: o.trims?.[i], atSample }),
  );
  const messages: string[] = [];
  const fades: FadeFit[] = [];
  for (let i = 0; i + 1 < planned.length; i++) {
    const fit = fitCrossfade(o.crossfade ?? 0, planned[i].durationSeconds, planned[i + 1].durationSeconds);
    if (fit.shortened) messages.push(shortenedMessage(inputs[i].name, inputs[i + 1].name, o.crossfade!, fit));
    fades.push(fit);
  }
  const gap = o.gap ?? 0;
  const plan: SoundPlan = {
    inputs: planned,
    gap,
    fades,
    starts: inputStarts(
      planned.map((p) => p.durationSeconds),
      gap,
      fades,
    ),
    messages,
  };
  if (o.loudness !== undefined) {
    plan.loudness = planned.map((p, i) => {
      const m = measured[i];
      const entry: LoudnessEntry = {
        input: i,
        measured: m?.integratedLufs ?? null,
        gainDb: p.gain?.gainDb ?? 0,
      };
      if (p.gain?.limiter) entry.limiter = true;
      if (p.gain?.limited) {
        entry.limited = true;
        messages.push(limitedMessage(inputs[i].name, p.gain, o.loudness!, m!.integratedLufs!));
      }
      return entry;
    });
  }
  return plan;
}
