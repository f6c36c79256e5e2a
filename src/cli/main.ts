// The audio-merge command line. Start-up is a visible share of a short merge, so the engine is
// imported only once the arguments are known to be good, and the tools are not test-run first.
import { existsSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HELP, USAGE, parseArgs, type CliArgs } from './args.js';
import { expandFolders, type FolderReader } from './folders.js';
import { progressBar } from './progress-bar.js';
import { summaryLine } from './summary.js';
import { TimeLeft } from '../shared/eta.js';
import {
  CHAPTERS_FILE_MAX_BYTES,
  chaptersFileText,
  parseChaptersFile,
  type ChapterLine,
} from '../shared/chapters-file.js';
import { DETAIL_NAMES, type Details } from '../shared/details.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function sameFile(a: string, b: string): boolean {
  if (path.resolve(a) === path.resolve(b)) return true;
  try {
    const sa = statSync(a);
    const sb = statSync(b);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return false;
  }
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

const folders: FolderReader = {
  isFolder,
  filesIn: (folder) =>
    readdirSync(folder, { withFileTypes: true })
      .filter((e) => e.isFile() || (e.isSymbolicLink() && !isFolder(path.join(folder, e.name))))
      .map((e) => e.name),
  same: sameFile,
};

/**
 * Why the cover cannot be used, or undefined; never reads more than one byte past the size limit.
 * A named pipe is not checked here: it can be read once, so the merge reads it (bounded,
 * and stopped by a signal like the rest of the merge).
 */
async function coverProblem(file: string): Promise<string | undefined> {
  const { checkCover, COVER_LIMITS, readAtMost } = await import('../engine/index.js');
  try {
    if (statSync(file).isFIFO()) return undefined;
    const checked = checkCover(await readAtMost(file, COVER_LIMITS.bytes));
    return checked.ok ? undefined : `${file}: ${checked.reason}`;
  } catch (err) {
    return `the cover ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
}

/** The chapters file's chapters, or why it cannot be used (naming the line); reads no more than its limit. */
async function readChapters(file: string): Promise<ChapterLine[] | string> {
  const { readAtMost } = await import('../engine/index.js');
  let text: string;
  try {
    const data = await readAtMost(file, CHAPTERS_FILE_MAX_BYTES);
    if (data.length > CHAPTERS_FILE_MAX_BYTES)
      return `the chapters file ${file} is larger than ${CHAPTERS_FILE_MAX_BYTES / (1024 * 1024)} MB`;
    const decoded = chaptersFileText(data);
    if (!decoded.ok) return `${file}, line ${decoded.line}: ${decoded.message}`;
    text = decoded.text;
  } catch (err) {
    return `the chapters file ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`;
  }
  const parsed = parseChaptersFile(text);
  return parsed.ok ? parsed.chapters : `${file}, line ${parsed.line}: ${parsed.message}`;
}

/** What is wrong with the files the options name (cover, chapters file): exit 2, before any work. */
async function checkNamedFiles(args: CliArgs): Promise<{ chapters?: ChapterLine[]; problem?: string }> {
  const cover = args.cover !== undefined ? await coverProblem(args.cover) : undefined;
  if (cover) return { problem: cover };
  if (args.chaptersFile === undefined) return {};
  const chapters = await readChapters(args.chaptersFile);
  return typeof chapters === 'string' ? { problem: chapters } : { chapters };
}

/** OUT, or with --split its first part (two or three digits), when it exists. */
async function existingTarget(args: CliArgs): Promise<string | undefined> {
  if (args.chapterOptions?.split === undefined) return existsSync(args.output) ? args.output : undefined;
  const { partPath } = await import('../engine/index.js');
  return [partPath(args.output, 0, 2), partPath(args.output, 0, 100)].find((p) => existsSync(p));
}

/** A path relative to the working folder when it lies inside it, else as it is. */
function shownPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

const detailsOf = (args: CliArgs): Details =>
  Object.fromEntries(DETAIL_NAMES.flatMap((n) => (args[n] !== undefined ? [[n, args[n]]] : [])));

export async function main(argv: string[]): Promise<number> {
  const parsed = parseArgs(argv, isFolder);
  if (parsed.kind === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  if (parsed.kind === 'usage') {
    process.stderr.write(`audio-merge: ${parsed.message}\n${USAGE}\n`);
    return 2;
  }
  const expanded = expandFolders(parsed.args.inputs, parsed.args.output, folders);
  if (!expanded.ok) {
    process.stderr.write(`audio-merge: ${expanded.input}: ${expanded.reason}\n`);
    return 1;
  }
  const args = { ...parsed.args, inputs: expanded.inputs };
  const clash = args.inputs.find((f) => sameFile(f, args.output));
  if (clash !== undefined) {
    process.stderr.write(`audio-merge: the output ${args.output} is also an input\n${USAGE}\n`);
    return 2;
  }

  const named = await checkNamedFiles(args);
  if (named.problem) {
    process.stderr.write(`audio-merge: ${named.problem}\n${USAGE}\n`);
    return 2;
  }

  const clobbered = args.noClobber ? await existingTarget(args) : undefined;
  if (clobbered !== undefined) {
    process.stderr.write(`audio-merge: ${clobbered} exists; not overwritten (--no-clobber)\n`);
    return 1;
  }

  const {
    mergeFiles,
    lazyToolPaths,
    AbortError,
    TrimError,
    ChapterError,
    sweepLeftovers,
    FALLBACK_NOTICE,
    fallbackLine,
    isFallbackStage,
  } = await import('../engine/index.js');
  // What a killed run left beside its output (its .partial file and temporary folder) goes now.
  await sweepLeftovers(path.dirname(path.resolve(args.output)));

  const controller = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const stop = (sig: NodeJS.Signals) => {
    stoppedBy ??= sig;
    controller.abort();
  };
  // SIGHUP too: a closed terminal or dropped ssh session would otherwise kill us at once, leaving
  // the partial file, the temporary folder and orphaned ffmpegs writing into it.
  for (const sig of SIGNALS) process.on(sig, stop);
  const bar = !args.quiet && process.stderr.isTTY === true;
  const timeLeft = new TimeLeft(Date.now);
  try {
    // Found on first use and unchecked: a missing or broken ffmpeg surfaces as a ToolError when
    // it is first needed, and a merge of matching MP3s never needs it.
    const tools = lazyToolPaths(process.env, (found) => {
      if (found.source === 'npm')
        process.stderr.write(`${bar ? '\r\x1b[K' : ''}audio-merge: ${FALLBACK_NOTICE}\n`);
    });
    const report = await mergeFiles(args.inputs, args.output, {
      tools,
      format: args.format,
      bitRateKbps: args.bitRateKbps,
      chapters: args.chapters,
      chapterTitles: args.chapterTitles,
      inputChapters: args.inputChapters,
      chapterList: named.chapters,
      ...detailsOf(args),
      cover: args.cover,
      channels: args.channels,
      sampleRate: args.sampleRate,
      ...args.sound,
      ...args.chapterOptions,
      trims: args.trims,
      // Tests force a fast path's check to fail; read here, at the edge, and nowhere in the engine.
      failChecks: (process.env.AUDIO_MERGE_FAIL_CHECKS ?? '').split(',').filter(isFallbackStage),
      // The benchmark times the plain way alone, against a run whose check is made to fail.
      plainOnly: process.env.AUDIO_MERGE_PLAIN_ONLY === '1',
      signal: controller.signal,
      onProgress: bar ? (p, where) => process.stderr.write(progressBar(p, timeLeft.at(p), where)) : undefined,
    });
    if (bar) process.stderr.write('\n');
    for (const note of report.notes ?? []) process.stderr.write(`audio-merge: ${note}\n`);
    for (const f of report.fallbacks) process.stderr.write(`${fallbackLine(f)}\n`);
    if (args.json) process.stdout.write(`${JSON.stringify(report)}\n`);
    else if (!args.quiet) process.stderr.write(`${summaryLine(report, shownPath)}\n`);
    return 0;
  } catch (err) {
    if (bar) process.stderr.write('\n');
    if (err instanceof AbortError || stoppedBy) {
      process.stderr.write('audio-merge: cancelled\n');
      return 128 + (os.constants.signals[stoppedBy ?? 'SIGINT'] ?? 2);
    }
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof ChapterError) {
      process.stderr.write(`audio-merge: ${args.chaptersFile ?? ''}: ${message}\n`);
      return 2;
    }
    process.stderr.write(`audio-merge: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
    // A trim that does not fit its input is a mistake in the command, known once the inputs are read.
    return err instanceof TrimError ? 2 : 1;
  } finally {
    for (const sig of SIGNALS) process.off(sig, stop);
  }
}
