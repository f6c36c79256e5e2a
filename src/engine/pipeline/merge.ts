// The pipeline: probe, plan, transcode what does not match, join in order, rename into place.
import { mkdtemp, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { AbortError, InputError, OutputError } from '../errors.js';
import type { Runner } from '../ffmpeg/runner.js';
import { fsReason, isDiskFull } from '../io/fs-reason.js';
import { joinMp3, type JoinPart } from '../mp3/join.js';
import { scanMp3, type Mp3Scan } from '../mp3/scan.js';
import { planMerge } from './plan.js';
import { runPool } from './pool.js';
import { probeInput, type Probed } from './probe.js';
import { ProgressTracker } from './progress.js';
import { locateTools } from '../ffmpeg/tools.js';
import { transcodeToMp3, trustsDuration } from '../ffmpeg/transcode.js';
import type { MergeOptions, MergeReport, ProbeResult } from '../types.js';

/** A file-system error while writing, as an OutputError: "what: why", coded disk-full when it is. */
function outputError(what: string, err: unknown): OutputError {
  return new OutputError(`${what}: ${fsReason(err)}`, isDiskFull(err) ? 'disk-full' : 'output-unwritable');
}

export interface MergeDeps {
  /** Injected ffmpeg/ffprobe runner (tests watch what it is asked). */
  runner?: Runner;
}

// Probing MP3s is in-process file reading; a few at once keeps the disk busy without flooding it.
const PROBE_LIMIT = 8;

function defaultTitle(name: string): string {
  return path.basename(name).replace(/\.[^.]+$/, '') || path.basename(name);
}

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

/**
 * Join `inputs`, in order, into one MP3 at `output`, atomically (temporary file + rename).
 * Throws InputError (with index) for an unusable input, AbortError when cancelled.
 */
export async function mergeFiles(
  inputs: string[],
  output: string,
  opts: MergeOptions & MergeDeps = {},
): Promise<MergeReport> {
  if (inputs.length === 0) throw new Error('mergeFiles: no inputs');
  const target = path.resolve(output);
  if (inputs.some((f) => path.resolve(f) === target)) throw new Error('mergeFiles: the output is one of the inputs');
  const outer = opts.signal;
  if (outer?.aborted) throw new AbortError();

  // One controller for the whole job, so a failure in one transcode stops the others.
  const job = new AbortController();
  const onOuterAbort = () => job.abort();
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  const signal = job.signal;
  const names = inputs.map((f, i) => opts.displayNames?.[i] ?? f);
  const concurrency = Math.max(1, opts.concurrency ?? os.availableParallelism());

  const workDir = opts.tmpDir ?? path.dirname(target);
  const partial = partialPath(target);
  let tempDir: string | undefined;
  try {
    const outDir = await stat(path.dirname(target)).catch(() => undefined);
    if (!outDir?.isDirectory()) throw new OutputError(`cannot write ${output}: no folder ${path.dirname(target)}`);
    if ((await stat(target).catch(() => undefined))?.isDirectory()) throw new OutputError(`cannot write ${output}: it is a folder`);
    if (/[\\/]$/.test(output)) throw new OutputError(`cannot write ${output}: that names a folder, not a file`);
    // Made now, so an output folder that cannot be written fails before any work is done.
    await writeFile(partial, '', { flag: 'wx' }).catch((err: unknown) => {
      throw outputError(`cannot write ${output}`, err);
    });
    const tools = opts.tools ?? (await locateTools());
    const all = inputs.map((_, i) => i);
    const probes = await runPool(
      all,
      PROBE_LIMIT,
      (i) => probeInput(inputs[i], { tools, signal, displayName: names[i], index: i, runner: opts.runner }),
      () => job.abort(),
    );
    const probedFull: Probed[] = all.map((i) => probes.get(i)!);
    const probed: ProbeResult[] = probedFull.map((p) => p.result);
    const plan = planMerge(probed);
    const tracker = new ProgressTracker(
      probed.map((p) => p.durationSeconds),
      plan.transcoded,
      opts.onProgress,
    );
    tracker.start();

    const scans = new Map<number, { file: string; scan: Mp3Scan }>();
    if (plan.transcoded.length > 0) {
      tempDir = await mkdtemp(path.join(workDir, '.audio-merge-')).catch((err: unknown) => {
        throw outputError(`cannot make a temporary folder in ${workDir}`, err);
      });
      const made = await runPool(
        plan.transcoded,
        concurrency,
        async (i) => {
          const file = path.join(tempDir!, `${i}.mp3`);
          await transcodeToMp3({
            input: inputs[i],
            output: file,
            target: plan,
            durationSeconds: probed[i].durationSeconds,
            trimToDuration: trustsDuration(probed[i].format),
            tools,
            runner: opts.runner,
            signal,
            onProgress: (f) => tracker.transcode(i, f),
            displayName: names[i],
            index: i,
          });
          const outcome = await scanMp3(file, { signal });
          if (!outcome.ok) throw new InputError(names[i], `re-encoded audio is unreadable (${outcome.reason})`, i, 'reencode-failed');
          return { file, scan: outcome.scan };
        },
        () => job.abort(),
      );
      for (const [i, part] of made) scans.set(i, part);
    }

    const parts: JoinPart[] = all.map((i) => {
      const made = scans.get(i);
      if (made) return made;
      // Copied inputs were read by the frame parser (the plan copies only those).
      const scan = probedFull[i].scan;
      if (!scan) throw new Error(`internal: no frame scan for input ${i}`);
      return { file: inputs[i], scan };
    });

    const first = probed[0].tags;
    const title = opts.title ?? first.title ?? defaultTitle(names[0]);
    const result = await joinMp3(parts, partial, {
      tags: { title, artist: first.artist, album: first.album },
      signal,
      onProgress: (done, total) => tracker.join(done, total),
    }).catch((err: unknown) => {
      // The join names files by path (a temporary one for a transcoded input); name the input.
      if (err instanceof InputError) {
        const i = parts.findIndex((p) => p.file === err.file);
        if (i >= 0) throw new InputError(names[i], err.reason, i, err.code);
      }
      // A full disk while writing the output is the output's problem, not an input's.
      if ((err as NodeJS.ErrnoException).syscall === 'write') throw outputError(`cannot write ${output}`, err);
      throw err;
    });
    if (signal.aborted) throw new AbortError();
    await rename(partial, target);
    const bytes = (await stat(target)).size;
    tracker.complete();
    return {
      output: target,
      durationSeconds: result.durationSeconds,
      inputs: inputs.length,
      transcoded: plan.transcoded,
      bytes,
      sampleRate: plan.sampleRate,
      channels: plan.channels,
    };
  } catch (err) {
    await rm(partial, { force: true });
    if (outer?.aborted) throw err instanceof AbortError ? err : new AbortError();
    throw err;
  } finally {
    outer?.removeEventListener('abort', onOuterAbort);
    job.abort();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  }
}
