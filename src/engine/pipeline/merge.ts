// The pipeline: probe, plan, then one route per output format (MP3 frames, MP4 packets, one PCM
// encode), written to a hidden file beside the target and renamed into place.
import { mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AbortError } from '../errors.js';
import type { Runner } from '../ffmpeg/runner.js';
import { locateTools } from '../ffmpeg/tools.js';
import { fsReason } from '../io/fs-reason.js';
import type { MergeOptions, MergeReport, Tools } from '../types.js';
import { CHAPTER_LIMIT, chapterTitles, chaptersFromStarts } from './chapters.js';
import { formatFromPath, isLossy, routeOf, type OutputFormat, type Route } from './formats.js';
import { resolveMeta } from './meta.js';
import { planOutput, type OutputPlan } from './plan-output.js';
import { runPool } from './pool.js';
import { probeInput, type Probed } from './probe.js';
import { JOIN_WEIGHT, ProgressTracker } from './progress.js';
import type { RouteContext, RouteResult } from './route.js';
import { mp3Route } from './route-mp3.js';
import { mp4Route } from './route-mp4.js';
import { pcmRoute } from './route-pcm.js';
import { mixedRoute } from './route-mixed.js';
import { needsMeasuring } from './sound-plan.js';
import { needsMixing, replanForSound, soundOptionsOf, soundStage } from './sound-stage.js';

export interface MergeDeps {
  /** Injected ffmpeg/ffprobe runner (tests watch what it is asked). */
  runner?: Runner;
}

// Probing MP3s is in-process file reading; a few at once keeps the disk busy without flooding it.
const PROBE_LIMIT = 8;

const ROUTES: Record<Route, (ctx: RouteContext) => Promise<RouteResult>> = {
  'mp3-frames': mp3Route,
  'mp4-packets': mp4Route,
  'pcm-encode': pcmRoute,
};

/** A hidden name beside the target (same file system, so the final rename is atomic). */
function partialPath(target: string): string {
  const base = path.basename(target);
  // Unique enough with the exclusive create below; not a secret, so node:crypto (~10 ms to load)
  // is not needed here.
  const random = `${process.pid.toString(36)}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  // File names are limited to 255 bytes; a long target name is not repeated.
  const name = Buffer.byteLength(base) <= 200 ? `.${base}.${random}.partial` : `.audio-merge-${random}.partial`;
  return path.join(path.dirname(target), name);
}

/** Refuse a target that cannot be written, before any work; create the partial file. */
async function claimOutput(output: string, target: string, partial: string): Promise<void> {
  const outDir = await stat(path.dirname(target)).catch(() => undefined);
  if (!outDir?.isDirectory()) throw new Error(`cannot write ${output}: no folder ${path.dirname(target)}`);
  if ((await stat(target).catch(() => undefined))?.isDirectory()) throw new Error(`cannot write ${output}: it is a folder`);
  if (/[\\/]$/.test(output)) throw new Error(`cannot write ${output}: that names a folder, not a file`);
  await writeFile(partial, '', { flag: 'wx' }).catch((err: unknown) => {
    throw new Error(`cannot write ${output}: ${fsReason(err)}`);
  });
}

function probeAll(inputs: string[], names: string[], tools: Tools, signal: AbortSignal, runner: Runner | undefined, abort: () => void): Promise<Probed[]> {
  const all = inputs.map((_, i) => i);
  return runPool(all, PROBE_LIMIT, (i) => probeInput(inputs[i], { tools, signal, displayName: names[i], index: i, runner }), abort).then((m) =>
    all.map((i) => m.get(i)!),
  );
}

function makePlan(format: OutputFormat, probed: Probed[], opts: MergeOptions): OutputPlan {
  const inputs = probed.map((p) => ({ ...p.result, aac: p.mp4 }));
  return planOutput(format, inputs, { bitRateKbps: opts.bitRateKbps });
}

/** The final PCM encode of a lossy format costs about what the decodes do; FLAC and WAV less. */
function finalWeight(plan: OutputPlan): number {
  if (plan.route !== 'pcm-encode') return JOIN_WEIGHT;
  return isLossy(plan.format) ? 1 : 0.2;
}

/** A temporary folder made on first use, inside `workDir`. */
function lazyScratch(workDir: string) {
  let made: Promise<string> | undefined;
  const scratch = () =>
    (made ??= mkdtemp(path.join(workDir, '.audio-merge-')).catch((err: unknown) => {
      throw new Error(`cannot make a temporary folder in ${workDir}: ${fsReason(err)}`);
    }));
  return { scratch, cleanup: async () => made && rm(await made.catch(() => ''), { recursive: true, force: true }) };
}

/**
 * Join `inputs`, in order, into one file at `output` in the asked format, atomically (temporary
 * file + rename). Throws InputError (with index) for an unusable input, AbortError when cancelled.
 */
export async function mergeFiles(inputs: string[], output: string, opts: MergeOptions & MergeDeps = {}): Promise<MergeReport> {
  if (inputs.length === 0) throw new Error('mergeFiles: no inputs');
  const target = path.resolve(output);
  if (inputs.some((f) => path.resolve(f) === target)) throw new Error('mergeFiles: the output is one of the inputs');
  const format = opts.format ?? formatFromPath(output) ?? 'mp3';
  const outer = opts.signal;
  if (outer?.aborted) throw new AbortError();

  // One controller for the whole job, so a failure in one transcode stops the others.
  const job = new AbortController();
  const onOuterAbort = () => job.abort();
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  const signal = job.signal;
  const abort = () => job.abort();
  const names = inputs.map((f, i) => opts.displayNames?.[i] ?? f);
  const partial = partialPath(target);
  const { scratch, cleanup } = lazyScratch(opts.tmpDir ?? path.dirname(target));
  try {
    await claimOutput(output, target, partial);
    const tools = opts.tools ?? (await locateTools());
    const probed = await probeAll(inputs, names, tools, signal, opts.runner, abort);
    const soundOptions = soundOptionsOf(opts);
    const plan = replanForSound(makePlan(format, probed, opts), soundOptions);
    const meta = await resolveMeta({ opts, probed, names, tools, runner: opts.runner, signal, scratch });
    const decoded = plan.copy.flatMap((c, i) => (c ? [] : [i]));
    const measured = needsMeasuring(soundOptions) ? inputs.map((_, i) => i) : [];
    const mixing = needsMixing(plan.route, soundOptions);
    // Mixing ends in one encode of everything, which costs what a PCM route's final encode does.
    const lastWeight = mixing ? finalWeight({ ...plan, route: 'pcm-encode' }) : finalWeight(plan);
    const tracker = new ProgressTracker(probed.map((p) => p.result.durationSeconds), decoded, opts.onProgress, lastWeight, measured);
    tracker.start();
    const concurrency = Math.max(1, opts.concurrency ?? os.availableParallelism());
    const sound = await soundStage({ inputs, names, probed, plan, options: soundOptions, tools, runner: opts.runner, signal, abort, concurrency, onMeasure: (i, f) => tracker.measure(i, f) });
    const titles = chapterTitles(names, probed.map((p) => p.result.tags.title), opts.chapterTitles);
    const chapters = (starts: number[], total: number) =>
      opts.chapters === false ? [] : chaptersFromStarts(titles, starts, total, CHAPTER_LIMIT[format]);
    const ctx: RouteContext = { inputs, names, probed, plan, output, partial, scratch, tools, runner: opts.runner, signal, abort, concurrency, tracker, meta, chapters, sound, gapInDecode: mixing || plan.route !== 'mp3-frames' };
    const result = await (mixing ? mixedRoute : ROUTES[routeOf(format)])(ctx);
    if (signal.aborted) throw new AbortError();
    await rename(partial, target);
    const bytes = (await stat(target)).size;
    tracker.complete();
    return {
      output: target,
      format,
      durationSeconds: Math.round(result.durationSeconds * 1e6) / 1e6,
      inputs: inputs.length,
      transcoded: plan.transcoded,
      chapters: result.chapters,
      bytes,
      sampleRate: plan.sampleRate,
      channels: plan.channels,
      ...(sound?.loudness ? { loudness: sound.loudness } : {}),
      ...(sound && sound.messages.length > 0 ? { notes: sound.messages } : {}),
    };
  } catch (err) {
    await rm(partial, { force: true });
    if (outer?.aborted) throw err instanceof AbortError ? err : new AbortError();
    throw err;
  } finally {
    outer?.removeEventListener('abort', onOuterAbort);
    job.abort();
    await cleanup();
  }
}
