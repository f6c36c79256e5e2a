// The pipeline: probe, plan, then one route per output format (MP3 frames, MP4 packets, one PCM
// encode), written to a hidden file beside the target and renamed into place.
import { mkdir, mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AbortError, ChapterError, TrimError } from '../errors.js';
import type { Runner } from '../ffmpeg/runner.js';
import { locateTools } from '../ffmpeg/tools.js';
import type { ChapterMark, MergeOptions, MergeReport, Tools } from '../types.js';
import {
  CHAPTER_LIMIT,
  chapterTitles,
  chaptersFromList,
  chaptersWithOwn,
  ownChaptersFrom,
  type Chapter,
} from '../plan/chapters.js';
import { formatFromPath, isLossy, routeOf, type OutputFormat, type Route } from '../plan/formats.js';
import {
  fallbackOf,
  plainSound,
  type CopiedMp3,
  type FailChecks,
  type Fallback,
  type FallbackStage,
} from '../plan/fallback.js';
import { claimOutput, outputError, partialPath } from '../output/output-file.js';
import { resolveMeta, type OutputMeta } from '../inputs/meta.js';
import { planOutput, type OutputPlan } from '../plan/output-plan.js';
import { runPool } from '../io/pool.js';
import { probeInput, type Probed } from '../inputs/probe.js';
import { ProgressTracker } from '../plan/progress.js';
import { progressWeights } from '../plan/progress-weights.js';
import type { RouteContext, RouteResult } from '../output/route-context.js';
import { mp3Route } from '../routes/route-mp3.js';
import { mp4Route } from '../routes/route-mp4.js';
import { pcmRoute } from '../routes/route-pcm.js';
import { TEMP_PREFIX } from '../io/leftovers.js';
import { mixedRoute } from '../routes/route-mixed.js';
import { mp3FadeRoute } from '../routes/route-mp3-fade.js';
import { needsMeasuring, type SoundPlan } from '../plan/sound-plan.js';
import {
  needsMixing,
  replanForSound,
  soundOptionsOf,
  soundStage,
  splicedWork,
  splicesAacTrims,
  splicesFades,
  withSoundCopies,
} from '../sound/sound-stage.js';
import { DECODER_DELAY } from '../plan/fade-splice.js';
import type { SoundSettings } from '../plan/sound-plan.js';
import type { KeepRange } from '../plan/trim-silence.js';
import { resolveTrims, trimLabel, type TrimSpan } from '../../shared/trim-span.js';
import { decodedLength } from '../inputs/length.js';
import type { Envelope } from '../plan/silence-chapters.js';
import { decodeEnvelopes, findsSilences, silenceChapters } from './book-silences.js';
import { mergeInParts } from './parts.js';

export interface MergeDeps {
  /** Injected ffmpeg/ffprobe runner (tests watch what it is asked). */
  runner?: Runner;
  /** Fast paths whose checks fail on purpose, to test their fallbacks (plan/fallback.ts). */
  failChecks?: FailChecks;
  /** Only the plain way, no fast path tried: what a fallback costs after its attempt (benchmarks). */
  plainOnly?: boolean;
}

// Probing MP3s is in-process file reading; a few at once keeps the disk busy without flooding it.
const PROBE_LIMIT = 8;

const ROUTES: Record<Route, (ctx: RouteContext) => Promise<RouteResult>> = {
  'mp3-frames': mp3Route,
  'mp4-packets': mp4Route,
  'pcm-encode': pcmRoute,
};

/** Probe every input of the job, a few at a time; the first failure cancels the rest. */
function probeAll(job: Job, tools: Tools): Promise<Probed[]> {
  const { inputs, names, signal, abort } = job;
  const runner = job.opts.runner;
  const all = inputs.map((_, i) => i);
  // Reading a book of hundreds of files takes a while: say how far it has come.
  let read = 0;
  const told = (p: Probed) => {
    read = Math.min(read + 1, all.length);
    job.opts.onProgress?.(0, { stage: 'reading', file: read, files: all.length });
    return p;
  };
  return runPool(
    all,
    PROBE_LIMIT,
    (i) =>
      probeInput(inputs[i], {
        tools,
        signal,
        displayName: names[i],
        index: i,
        runner,
        headDecode: false,
      }).then(told),
    abort,
  ).then((m) => all.map((i) => m.get(i)!));
}

function makePlan(format: OutputFormat, probed: Probed[], opts: MergeOptions): OutputPlan {
  const inputs = probed.map((p) => ({ ...p.result, aac: p.mp4 }));
  return planOutput(format, inputs, {
    bitRateKbps: opts.bitRateKbps,
    channels: opts.channels,
    sampleRate: opts.sampleRate,
    maxSampleRate: opts.maxSampleRate,
    maxChannels: opts.maxChannels,
  });
}

/** A temporary folder made on first use, inside `workDir`. */
function lazyScratch(workDir: string) {
  let made: Promise<string> | undefined;
  const scratch = () =>
    (made ??= mkdtemp(path.join(workDir, TEMP_PREFIX)).catch((err: unknown) => {
      throw outputError(`cannot make a temporary folder in ${workDir}`, err);
    }));
  return {
    scratch,
    cleanup: async () => made && rm(await made.catch(() => ''), { recursive: true, force: true }),
  };
}

interface Job {
  inputs: string[];
  output: string;
  target: string;
  partial: string;
  format: OutputFormat;
  names: string[];
  signal: AbortSignal;
  abort: () => void;
  scratch: () => Promise<string>;
  opts: MergeOptions & MergeDeps;
}

/**
 * Chapters as the options ask: none when off; the given list (a chapters file) when there is
 * one; else each input's own chapters (unless flattened) or one titled by the rule; within the
 * format's limit. A trimmed input keeps the own chapters its kept span reaches, counted from its start.
 */
function chapterMaker(
  job: Job,
  probed: Probed[],
  trims: ReadonlyArray<KeepRange | undefined>,
  found?: { envelopes: Envelope[]; sound: SoundPlan | undefined },
) {
  const { opts } = job;
  const titles = chapterTitles(
    job.names,
    probed.map((p) => p.result.tags.title),
    opts.chapterTitles,
    opts.inputChapterTitles,
  );
  const own = probed.map((p, i) =>
    opts.inputChapters === 'flatten' ? undefined : ownWithin(p.chapters, trims[i]),
  );
  const lengths = probed.map((p, i) => {
    const t = trims[i];
    return t ? t.end - t.start : p.result.durationSeconds;
  });
  const limit = CHAPTER_LIMIT[job.format];
  const fileChapters = (starts: number[], total: number) =>
    chaptersWithOwn(titles, own, { starts, lengths, total }, limit);
  return (starts: number[], total: number): Chapter[] => {
    if (opts.chapters === false) return [];
    if (opts.chapterList) return listedChapters(opts.chapterList, total);
    if (!found) return fileChapters(starts, total);
    const { envelopes, sound } = found;
    return silenceChapters(
      { envelopes, probed, trims, sound, options: opts, titles, fileChapters, limit },
      starts,
      total,
    );
  };
}

/** An input's own chapters within its trim, moved to the trim's start (the one it starts inside kept). */
function ownWithin(own: Probed['chapters'], trim: KeepRange | undefined): Probed['chapters'] {
  return own && trim ? ownChaptersFrom(own, trim.start) : own;
}

/**
 * A given chapter list over the format's limit is refused before any work, naming the first
 * chapter past it (docs/reference/command-line.md: MP3 and M4B hold at most 255 chapters, the others 999).
 */
function checkListLength(list: ChapterMark[] | undefined, format: OutputFormat): void {
  const limit = CHAPTER_LIMIT[format];
  if (!list || list.length <= limit) return;
  const c = list[limit];
  const where = c.line !== undefined ? `line ${c.line}` : `chapter ${limit + 1}`;
  throw new ChapterError(
    `chapters file, ${where}: more than ${limit} chapters, the most ${format.toUpperCase()} holds`,
    c.line,
    'too-many-chapters',
  );
}

function listedChapters(list: ChapterMark[], total: number): Chapter[] {
  const made = chaptersFromList(list, total);
  if (!Array.isArray(made)) {
    const c = list[made.pastEnd];
    const where = c.line !== undefined ? `line ${c.line}` : `chapter ${made.pastEnd + 1}`;
    throw new ChapterError(
      `chapters file, ${where}: starts at ${c.start} s, past the output's end (${total.toFixed(3)} s)`,
      c.line,
    );
  }
  return made;
}

/**
 * The trims asked, each checked against its input's decoded duration: the spans in input order, and
 * per input its kept range (undefined for an input used whole). Throws TrimError naming the trim.
 */
function trimsOf(job: Job, probed: Probed[]): { spans: TrimSpan[]; ranges: Array<KeepRange | undefined> } {
  const asked = job.opts.trims ?? [];
  const check = resolveTrims(
    asked,
    probed.map((p) => decodedLength(p.result)),
  );
  if (!check.ok) throw new TrimError(trimLabel(check.trim), check.reason, check.index, check.trim.input);
  const ranges: Array<KeepRange | undefined> = probed.map(() => undefined);
  for (const s of check.spans) ranges[s.input] = { start: s.start, end: s.end };
  return { spans: check.spans, ranges };
}

/** Chapters are found in silences (or split in pauses) only when chapters are written and not given. */
const silencesAsked = (opts: MergeOptions): boolean =>
  opts.chapters !== false && !opts.chapterList && findsSilences(opts);

/** Probe, plan, gather tags, run the sound stage, then the format's route writes the partial file. */
async function runRoute(job: Job): Promise<{
  plan: OutputPlan;
  result: RouteResult;
  fallbacks: Fallback[];
  tracker: ProgressTracker;
  sound: SoundPlan | undefined;
  trims: TrimSpan[];
  meta: OutputMeta;
}> {
  const { opts, signal, names, inputs } = job;
  await claimOutput(job.output, job.target, job.partial);
  const tools = opts.tools ?? (await locateTools());
  const probed = await probeAll(job, tools);
  const trims = trimsOf(job, probed);
  const soundOptions = soundOptionsOf(opts, trims.ranges);
  let plan = replanForSound(makePlan(job.format, probed, opts), soundOptions);
  const meta = await resolveMeta({
    opts,
    format: job.format,
    probed,
    names,
    tools,
    runner: opts.runner,
    signal,
    scratch: job.scratch,
  });
  const mixing = needsMixing(plan, soundOptions);
  const tracker = startTracker(job, probed, plan, soundOptions, mixing);
  const concurrency = Math.max(1, opts.concurrency ?? os.availableParallelism());
  const sound = await soundStage({
    inputs,
    names,
    probed,
    plan,
    options: soundOptions,
    tools,
    runner: opts.runner,
    signal,
    abort: job.abort,
    concurrency,
    onMeasure: (i, f) => tracker.measure(i, f),
  });
  // What measuring found may decode a copy after all (an MP3 that needs a limiter).
  if (sound) plan = withSoundCopies(plan, sound);
  const envelopes = silencesAsked(opts)
    ? await decodeEnvelopes({
        ...job,
        probed,
        trims: trims.ranges,
        tools,
        runner: opts.runner,
        concurrency,
        onProgress: (i, f) => tracker.measure(i, f),
      })
    : undefined;
  const ctx: RouteContext = {
    ...job,
    probed,
    plan,
    tools,
    runner: opts.runner,
    concurrency,
    tracker,
    meta,
    chapters: chapterMaker(job, probed, trims.ranges, envelopes && { envelopes, sound }),
    sound,
    // Decoded inputs take their gap as silence in the decode (every route encodes decodes, the MP3
    // and MP4 routes as timelines); copied MP3 and AAC take it as silent frames or packets.
    gapInDecode: true,
    failChecks: opts.failChecks,
  };
  const fastPath = pickRoute(plan, soundOptions, job.format);
  const made = opts.plainOnly && fastPath.stage ? await plainWay(ctx, []) : await withFallback(ctx, fastPath);
  if (signal.aborted) throw new AbortError();
  return { ...made, tracker, sound, trims: trims.spans, meta };
}

type RouteFn = (ctx: RouteContext) => Promise<RouteResult>;

interface FastPath {
  route: RouteFn;
  /** The stage an error of the route's own is told as; none for a route that is the plain way. */
  stage?: FallbackStage;
}

function pickRoute(plan: OutputPlan, o: SoundSettings, format: OutputFormat): FastPath {
  if (needsMixing(plan, o))
    return { route: mixedRoute, stage: plan.route === 'mp4-packets' ? 'chunked-encode' : undefined };
  if (splicesFades(plan, o)) return { route: mp3FadeRoute, stage: 'mp3-splice' };
  const route = ROUTES[routeOf(format)];
  if (plan.route === 'mp3-frames')
    return { route, stage: plan.copy.some(Boolean) ? 'mp3-join' : 'chunked-encode' };
  if (plan.route === 'mp4-packets') return { route, stage: aacStage(plan, o) };
  return { route };
}

const aacStage = (plan: OutputPlan, o: SoundSettings): FallbackStage =>
  !plan.copy.some(Boolean) ? 'chunked-encode' : splicesAacTrims(plan, o) ? 'aac-splice' : 'aac-copy';

/**
 * The route, and when its fast path fails its check or fails inside, the whole output made again
 * the plain way (every input decoded as planned, one encode). An input's fault, the output's, a
 * cancel, or a failure of the plain way itself fails the merge as before.
 */
async function withFallback(
  ctx: RouteContext,
  { route, stage }: FastPath,
): Promise<{ plan: OutputPlan; result: RouteResult; fallbacks: Fallback[] }> {
  // The attempt stops its own tasks on a failure (a chunk's), not the job's: the plain way follows.
  const attempt = new AbortController();
  const stop = () => attempt.abort();
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    const result = await route({ ...ctx, signal: attempt.signal, abort: stop });
    return { plan: ctx.plan, result, fallbacks: [] };
  } catch (err) {
    stop(); // nothing of the attempt goes on writing beside the plain way
    const fallback = stage && !ctx.signal.aborted ? fallbackOf(err, stage) : undefined;
    if (!fallback) throw err;
    await rm(ctx.partial, { force: true });
    return await plainWay(ctx, [fallback]);
  } finally {
    ctx.signal.removeEventListener('abort', stop);
    stop();
  }
}

/** The whole output made the plain way, after `fallbacks`. */
async function plainWay(
  ctx: RouteContext,
  fallbacks: Fallback[],
): Promise<{ plan: OutputPlan; result: RouteResult; fallbacks: Fallback[] }> {
  const plain = await plainContext(ctx);
  return { plan: plain.plan, result: await mixedRoute(plain), fallbacks };
}

/** The route's context for the plain way: nothing copied, every input decoded with its planned sound. */
async function plainContext(ctx: RouteContext): Promise<RouteContext> {
  const { plan } = ctx;
  const all = ctx.inputs.map((_, i) => i);
  const copied = ctx.probed.map((p, i): CopiedMp3 | undefined => {
    const scan = p.scan;
    if (!plan.copy[i] || !scan) return undefined;
    const skipped = scan.gapless ? scan.gapless.delay + DECODER_DELAY : 0;
    return { samplesPerFrame: scan.samplesPerFrame, sampleRate: scan.sampleRate, skipped };
  });
  const dir = path.join(await ctx.scratch(), 'plain');
  await mkdir(dir, { recursive: true });
  return {
    ...ctx,
    plan: {
      ...plan,
      copy: plan.copy.map(() => false),
      transcoded: isLossy(plan.format) ? all : plan.transcoded,
    },
    sound: ctx.sound && plainSound(ctx.sound, copied),
    scratch: () => Promise.resolve(dir),
    plain: true,
  };
}

/**
 * Progress weighs each input by its duration: measured first when loudness is matched, then
 * decoded, then joined or encoded once, each step by what it costs (plan/progress-weights.ts).
 */
function startTracker(
  job: Job,
  probed: Probed[],
  plan: OutputPlan,
  o: SoundSettings,
  mixing: boolean,
): ProgressTracker {
  // A splice decodes and encodes only a stretch around each fade or cut.
  const spliced = splicedWork(plan, probed, o);
  const decoded = plan.copy.flatMap((c, i) => (!c || spliced[i] > 0 ? [i] : []));
  // Finding silences decodes every input first, as measuring does.
  const measured = needsMeasuring(o) || silencesAsked(job.opts) ? job.inputs.map((_, i) => i) : [];
  const durations = probed.map((p, i) => {
    const t = o.trims?.[i];
    return t ? t.end - t.start : p.result.durationSeconds;
  });
  const tracker = new ProgressTracker({
    durations,
    transcoded: decoded,
    weights: progressWeights(plan.format, plan.route, mixing),
    onPercent: job.opts.onProgress,
    measured,
    encodedSeconds: spliced,
  });
  tracker.start();
  return tracker;
}

/**
 * Join `inputs`, in order, into one file at `output` in the asked format, atomically (temporary
 * file + rename). Throws InputError (with index) for an unusable input, AbortError when cancelled.
 */
export async function mergeFiles(
  inputs: string[],
  output: string,
  opts: MergeOptions & MergeDeps = {},
): Promise<MergeReport> {
  if (inputs.length === 0) throw new Error('mergeFiles: no inputs');
  if (opts.split !== undefined) return mergeInParts(mergeFiles, inputs, output, opts);
  const target = path.resolve(output);
  if (inputs.some((f) => path.resolve(f) === target))
    throw new Error('mergeFiles: the output is one of the inputs');
  const outer = opts.signal;
  if (outer?.aborted) throw new AbortError();
  const format = opts.format ?? formatFromPath(output) ?? 'mp3';
  if (opts.chapters !== false) checkListLength(opts.chapterList, format);

  // One controller for the whole job, so a failure in one transcode stops the others.
  const controller = new AbortController();
  const abort = () => controller.abort();
  outer?.addEventListener('abort', abort, { once: true });
  const { scratch, cleanup } = lazyScratch(opts.tmpDir ?? path.dirname(target));
  const job: Job = {
    inputs,
    output,
    target,
    partial: partialPath(target),
    format,
    names: inputs.map((f, i) => opts.displayNames?.[i] ?? f),
    signal: controller.signal,
    abort,
    scratch,
    opts,
  };
  try {
    const { plan, result, tracker, sound, trims, meta, fallbacks } = await runRoute(job);
    // Before the output takes its name: a copy that cannot be written fails the merge whole.
    if (opts.coverCopy && meta.cover) await writeFile(opts.coverCopy, meta.cover.data);
    await rename(job.partial, target);
    const bytes = (await stat(target)).size;
    tracker.complete();
    return {
      output: target,
      format: job.format,
      durationSeconds: Math.round(result.durationSeconds * 1e6) / 1e6,
      inputs: inputs.length,
      transcoded: plan.transcoded,
      chapters: result.chapters,
      bytes,
      sampleRate: plan.sampleRate,
      channels: plan.channels,
      tags: meta.tags,
      cover: meta.cover !== undefined,
      fallbacks,
      ...(sound?.loudness ? { loudness: sound.loudness } : {}),
      ...(opts.trims ? { trims } : {}),
      ...(sound && sound.messages.length > 0 ? { notes: sound.messages } : {}),
    };
  } catch (err) {
    await rm(job.partial, { force: true });
    if (outer?.aborted) throw err instanceof AbortError ? err : new AbortError();
    throw err;
  } finally {
    outer?.removeEventListener('abort', abort);
    abort();
    await cleanup();
  }
}
