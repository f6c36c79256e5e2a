// Between the plan and the routes: which inputs the sound options make decoded after all, the
// measuring decodes (one per input, in parallel), and the sound plan the routes follow.
import type { Measurement } from '../ffmpeg/loudness.js';
import type { Runner } from '../ffmpeg/runner.js';
import { mp3DecodedSamples } from '../mp3/gapless.js';
import type { MergeOptions, Tools } from '../types.js';
import { isLossy } from '../plan/formats.js';
import { measureAll } from './measure.js';
import { spliceProgressWeights } from './mp4-splice.js';
import { measureInput } from '../ffmpeg/loudness.js';
import { inputChain } from '../ffmpeg/sound-filters.js';
import { runPool } from '../io/pool.js';
import { limiterFor } from '../output/route-context.js';
import type { OutputPlan } from '../plan/output-plan.js';
import type { Probed } from '../inputs/probe.js';
import {
  decodesEverything,
  needsMeasuring,
  planSound,
  trimmed,
  type SoundPlan,
  type SoundSettings,
} from '../plan/sound-plan.js';
import type { KeepRange } from '../plan/trim-silence.js';

/** The sound options of a merge, with each input's trim (index-aligned, seconds). */
export function soundOptionsOf(o: MergeOptions, trims?: ReadonlyArray<KeepRange | undefined>): SoundSettings {
  const { loudness, gap, crossfade, trimSilence, gapless } = o;
  return {
    loudness,
    gap,
    crossfade,
    trimSilence,
    gapless,
    ...(trims && trimmed({ trims }) ? { trims } : {}),
  };
}

/** Whether any option changes the sound at all (with none, the merge is exactly as without them). */
export function soundActive(o: SoundSettings): boolean {
  return (
    o.loudness !== undefined ||
    (o.gap ?? 0) > 0 ||
    (o.crossfade ?? 0) > 0 ||
    o.trimSilence === true ||
    o.gapless === true ||
    trimmed(o)
  );
}

/** Whether the only option on is a gap (which the MP3 and MP4 routes put between copies as silence). */
export function gapOnly(o: SoundSettings): boolean {
  return (o.gap ?? 0) > 0 && !soundActive({ ...o, gap: 0 });
}

/**
 * The plan with the inputs the sound options must decode: all of them for a gapless join or a
 * crossfade that cannot be spliced into copies, AAC packet copies whenever an option other than a
 * gap changes their sound (only MP3 frames can take a gain without a decode; AAC copies keep trims
 * alone by splicing, when every input is a copy), and a trimmed copy that cannot be spliced (the
 * other inputs are not all copies). A splice keeps copies copied: only the frames next to a cut or
 * a fade go through the encoder, so no input of a splice counts as transcoded (the report lists an
 * input whose own audio was encoded beyond those; a copy whose neighbour is trimmed is not one).
 */
export function replanForSound(plan: OutputPlan, o: SoundSettings): OutputPlan {
  if (splicesFades(plan, o) || splicesAacTrims(plan, o)) return plan;
  const decodeAll = decodesEverything(o) || (plan.route === 'mp4-packets' && soundActive(o) && !gapOnly(o));
  if (decodeAll && plan.copy.some(Boolean)) {
    const all = plan.copy.map((_, i) => i);
    return { ...plan, copy: plan.copy.map(() => false), transcoded: isLossy(plan.format) ? all : [] };
  }
  const cut = plan.copy.flatMap((c, i) => (c && o.trims?.[i] ? [i] : []));
  if (cut.length === 0) return plan;
  const transcoded = isLossy(plan.format)
    ? [...new Set([...plan.transcoded, ...cut])].sort((a, b) => a - b)
    : plan.transcoded;
  return { ...plan, copy: plan.copy.map((c, i) => c && !o.trims?.[i]), transcoded };
}

/** The plan with the copies the sound plan decodes after all (a copied MP3 that needs a limiter). */
export function withSoundCopies(plan: OutputPlan, sound: SoundPlan): OutputPlan {
  const decoded = plan.copy.flatMap((c, i) => (c && !sound.inputs[i].copy ? [i] : []));
  if (decoded.length === 0) return plan;
  const transcoded = [...new Set([...plan.transcoded, ...(isLossy(plan.format) ? decoded : [])])].sort(
    (a, b) => a - b,
  );
  return { ...plan, copy: plan.copy.map((c, i) => c && sound.inputs[i].copy), transcoded };
}

/**
 * Whether copied MP3s are re-encoded only around each fade or cut, every other frame copied: MP3
 * output whose inputs are all copied MP3 frames, crossfaded (without --trim-silence, which cuts
 * copies at whole frames) or trimmed (cut at the sample, --trim-silence inside the trims), and
 * nothing that needs them decoded. No input then counts as transcoded: only the frames at a fade or
 * a cut go through the encoder.
 */
export function splicesFades(plan: OutputPlan, o: SoundSettings): boolean {
  if (o.gapless === true || plan.route !== 'mp3-frames' || !plan.copy.every(Boolean)) return false;
  if (trimmed(o)) return true;
  return (o.crossfade ?? 0) > 0 && o.trimSilence !== true && plan.copy.length > 1;
}

/**
 * Whether copied AAC is cut at the sample with its packets kept (sound/mp4-splice.ts): MP4 output
 * whose inputs are all copied AAC, trimmed, and no other sound option (a gain, a fade, a gap or a
 * silence trim changes more than the frames at the cuts, so those inputs are re-encoded whole).
 * Only the frames at the cuts pass through the encoder: the inputs stay copies, not reported as
 * transcoded, as a fade splice's are not (replanForSound).
 */
export function splicesAacTrims(plan: OutputPlan, o: SoundSettings): boolean {
  if (plan.route !== 'mp4-packets' || !plan.copy.every(Boolean) || !trimmed(o)) return false;
  return !soundActive({ ...o, trims: undefined });
}

/**
 * Seconds re-encoded around a spliced fade beyond the fade itself: margins, pre-roll and tail
 * (plan/fade-splice.ts).
 */
const SPLICE_EXTRA_SECONDS = 0.3;

/**
 * Per input, the seconds a spliced crossfade re-encodes for the fade after it (the progress
 * bar's weights; the route reports each join's stretch as the input before it).
 */
export function splicedSeconds(inputs: number, o: SoundSettings): number[] {
  return Array.from({ length: inputs }, (_, i) =>
    i + 1 < inputs ? (o.crossfade ?? 0) + SPLICE_EXTRA_SECONDS : 0,
  );
}

/**
 * Per input, the seconds of it a splice re-encodes, in the progress bar's unit (an input's
 * encode): around each spliced fade, or the stretches at the cuts of copied AAC; empty when the
 * merge does not splice.
 */
export function splicedWork(plan: OutputPlan, probed: readonly Probed[], o: SoundSettings): number[] {
  if (splicesFades(plan, o)) return splicedSeconds(plan.copy.length, o);
  if (splicesAacTrims(plan, o)) return spliceProgressWeights(probed, o.trims ?? [], plan.format);
  return [];
}

/** Whether the route must be the mixing one: fades (unless spliced), or gapless joins of separately encoded parts. */
export function needsMixing(plan: OutputPlan, o: SoundSettings): boolean {
  if (splicesFades(plan, o)) return false;
  return (o.crossfade ?? 0) > 0 || (o.gapless === true && plan.route !== 'pcm-encode');
}

export interface SoundStageJob {
  inputs: string[];
  names: string[];
  probed: Probed[];
  plan: OutputPlan;
  options: SoundSettings;
  tools: Tools;
  runner?: Runner;
  signal: AbortSignal;
  abort: () => void;
  concurrency: number;
  onMeasure: (index: number, fraction: number) => void;
}

/** Measure what the options need and plan the sound; undefined when no option is on. */
export async function soundStage(job: SoundStageJob): Promise<SoundPlan | undefined> {
  const o = job.options;
  if (!soundActive(o)) return undefined;
  const { plan, probed } = job;
  const all = job.inputs.map((_, i) => i);
  let measured: Array<Measurement | undefined> = [];
  if (needsMeasuring(o)) {
    const got = await measureAll(job.inputs, all, {
      tools: job.tools,
      concurrency: job.concurrency,
      silence: o.trimSilence,
      keeps: o.trims,
      runner: job.runner,
      signal: job.signal,
      names: job.names,
      durations: probed.map((p) => p.result.durationSeconds),
      onProgress: job.onMeasure,
      onFailure: job.abort,
    });
    measured = all.map((i) => got.get(i));
  }
  const inputs = all.map((i) => {
    const scan = probed[i].scan;
    const mp3Copy = plan.route === 'mp3-frames' && plan.copy[i] && scan !== undefined;
    return {
      name: job.names[i],
      durationSeconds: decodedSeconds(probed[i], o.trims?.[i] ? undefined : measured[i]),
      copy: plan.copy[i],
      mp3Copy,
      lossyOutput: isLossy(plan.format),
      mp3: mp3Copy
        ? {
            frames: scan!.frames,
            samplesPerFrame: scan!.samplesPerFrame,
            sampleRate: scan!.sampleRate,
            encoderDelay: scan!.gapless?.delay,
          }
        : undefined,
    };
  });
  const spliced = splicesFades(plan, o);
  const sound = planSound(inputs, measured, o, decodesEverything(o) && !spliced, spliced);
  if (o.loudness !== undefined) await settleLimited(job, sound, o.loudness);
  return sound;
}

/** Measures of a limited input at most, and the correction under which it counts as settled (LU). */
const SETTLE_PASSES = 3;
const SETTLED_LU = 0.5;

/**
 * A limiter takes loudness with the peaks it lowers. Each limited input is measured again through
 * its gain and limiter (within its trim), and its gain corrected by what is missing, so it ends at
 * the target (the limiter keeps the ceiling whatever the gain). More gain is partly limited away
 * too, so where a correction was large (the loudness lies in the transients: a drum-like FLAC was
 * 1.8 LU short after one) the input is measured again, until a correction is small.
 */
async function settleLimited(job: SoundStageJob, sound: SoundPlan, target: number): Promise<void> {
  const limited = sound.inputs.flatMap((p, i) => (p.gain?.limiter ? [i] : []));
  if (limited.length === 0) return;
  const { plan } = job;
  const chain = (i: number) =>
    inputChain({
      sampleRate: plan.sampleRate,
      channels: plan.channels,
      gainDb: sound.inputs[i].gain!.gainDb,
      limit: limiterFor(plan),
    });
  await runPool(
    limited,
    job.concurrency,
    async (i) => {
      const gain = sound.inputs[i].gain!;
      for (let pass = 0; pass < SETTLE_PASSES; pass++) {
        const m = await measureInput({
          input: job.inputs[i],
          tools: job.tools,
          runner: job.runner,
          signal: job.signal,
          displayName: job.names[i],
          index: i,
          keep: job.options.trims?.[i],
          preFilter: chain(i),
        });
        if (m.integratedLufs === null) return;
        const missing = target - m.integratedLufs;
        gain.gainDb = Math.round((gain.gainDb + missing) * 100) / 100;
        const entry = sound.loudness?.find((e) => e.input === i);
        if (entry) entry.gainDb = gain.gainDb;
        if (Math.abs(missing) <= SETTLED_LU) return;
      }
    },
    job.abort,
  );
}

/**
 * What a decode of the input gives, in seconds: an MP3's frames less the delay and padding its
 * LAME tag states (ffmpeg trims both), else the measuring decode's length, else the probed one.
 */
export function decodedSeconds(p: Probed, m?: Measurement): number {
  const scan = p.scan;
  if (scan?.gapless)
    return mp3DecodedSamples(scan.frames, scan.samplesPerFrame, scan.gapless) / scan.sampleRate;
  return m?.decodedSeconds || p.result.durationSeconds;
}
