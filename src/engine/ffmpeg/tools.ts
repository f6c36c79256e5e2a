// Finds ffmpeg/ffprobe in the order docs/reference/server.md fixes: env vars, PATH, npm-shipped binaries.
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ToolError } from '../errors.js';

/** Resolved ffmpeg/ffprobe binaries (found in the order below). */
export interface Tools {
  ffmpeg: string;
  ffprobe: string;
  /** Where they came from: 'env' | 'path' | 'npm'. */
  source: 'env' | 'path' | 'npm';
  ffmpegVersion: string;
}

const require = createRequire(import.meta.url);

function onPath(name: string, envPath: string | undefined): string | undefined {
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function fromNpm(pkg: string): string | undefined {
  try {
    return (require(pkg) as { path: string }).path;
  } catch {
    return undefined;
  }
}

/** Resolve binary paths without running them. */
export function resolveToolPaths(env: NodeJS.ProcessEnv = process.env): Omit<Tools, 'ffmpegVersion'> {
  if (env.FFMPEG_PATH || env.FFPROBE_PATH) {
    if (!env.FFMPEG_PATH || !env.FFPROBE_PATH) {
      throw new ToolError('Set both FFMPEG_PATH and FFPROBE_PATH, or neither');
    }
    return { ffmpeg: env.FFMPEG_PATH, ffprobe: env.FFPROBE_PATH, source: 'env' };
  }
  const ffmpeg = onPath('ffmpeg', env.PATH);
  const ffprobe = onPath('ffprobe', env.PATH);
  if (ffmpeg && ffprobe) return { ffmpeg, ffprobe, source: 'path' };
  const npmFfmpeg = fromNpm('@ffmpeg-installer/ffmpeg');
  const npmFfprobe = fromNpm('@ffprobe-installer/ffprobe');
  if (npmFfmpeg && npmFfprobe) return { ffmpeg: npmFfmpeg, ffprobe: npmFfprobe, source: 'npm' };
  throw new ToolError(
    'ffmpeg/ffprobe not found: install ffmpeg (sudo apt install ffmpeg on Debian and Ubuntu, brew install ffmpeg on macOS), or set FFMPEG_PATH and FFPROBE_PATH',
  );
}

/**
 * What a person whose only ffmpeg is the npm fallback is told, once (server start, command line):
 * that build is from 2018 and several times slower than a current one.
 */
export const FALLBACK_NOTICE =
  'no ffmpeg on PATH, so using the one the npm package ships (from 2018, several times slower); ' +
  'install a current one: sudo apt install ffmpeg (Debian, Ubuntu), brew install ffmpeg (macOS), ' +
  'or see https://ffmpeg.org/download.html';

/**
 * Tools resolved on first use and not test-run: for the command line, where a merge of MP3s that
 * all match never runs ffmpeg, and finding the npm-shipped binaries costs ~7 ms of start-up.
 * A missing tool throws ToolError where it is first needed.
 */
export function lazyToolPaths(
  env: NodeJS.ProcessEnv = process.env,
  onFound?: (paths: Omit<Tools, 'ffmpegVersion'>) => void,
): Tools {
  let paths: Omit<Tools, 'ffmpegVersion'> | undefined;
  const get = () => {
    if (!paths) {
      paths = resolveToolPaths(env);
      onFound?.(paths);
    }
    return paths;
  };
  return {
    get ffmpeg() {
      return get().ffmpeg;
    },
    get ffprobe() {
      return get().ffprobe;
    },
    get source() {
      return get().source;
    },
    ffmpegVersion: 'unchecked',
  };
}

function run(bin: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    // Required here, not imported: most runs of the command line never test-run a tool.
    (require('node:child_process') as typeof import('node:child_process')).execFile(
      bin,
      args,
      { maxBuffer: 8 * 1024 * 1024 },
      (err, stdout) => {
        if (err) reject(new ToolError(`${bin} ${args.join(' ')} failed: ${err.message}`));
        else resolve(stdout);
      },
    );
  });
}

const REQUIRED_ENCODERS = ['libmp3lame'];

let cached: Promise<Tools> | undefined;

/**
 * Resolve and check the tools once per process: both must run, and ffmpeg must have the
 * encoders the engine needs. Throws ToolError with a message a person can act on.
 */
export function locateTools(env: NodeJS.ProcessEnv = process.env): Promise<Tools> {
  if (env === process.env && cached) return cached;
  const p = (async () => {
    const paths = resolveToolPaths(env);
    const versionText = await run(paths.ffmpeg, ['-hide_banner', '-version']);
    await run(paths.ffprobe, ['-hide_banner', '-version']);
    const encoders = await run(paths.ffmpeg, ['-hide_banner', '-encoders']);
    for (const enc of REQUIRED_ENCODERS) {
      if (!new RegExp(`\\s${enc}\\s`).test(encoders)) {
        throw new ToolError(`${paths.ffmpeg} has no ${enc} encoder; install an ffmpeg built with it`);
      }
    }
    const ffmpegVersion = /ffmpeg version (\S+)/.exec(versionText)?.[1] ?? 'unknown';
    return { ...paths, ffmpegVersion };
  })();
  if (env === process.env) {
    cached = p;
    p.catch(() => {
      cached = undefined;
    });
  }
  return p;
}
