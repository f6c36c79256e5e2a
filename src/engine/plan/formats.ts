// Pure: the output formats, how a file name or --format names one, and each one's defaults.

import { isOutputFormat, type OutputFormat } from '../../shared/output-formats.js';

export { OUTPUT_FORMATS, isOutputFormat, type OutputFormat } from '../../shared/output-formats.js';

/** The format OUT's extension names, or undefined for an extension that names none. */
export function formatFromPath(file: string): OutputFormat | undefined {
  const ext = /\.([^./\\]+)$/.exec(file)?.[1]?.toLowerCase() ?? '';
  return isOutputFormat(ext) ? ext : undefined;
}

/** Formats whose audio goes through a lossy encoder when it is not copied. */
export function isLossy(format: OutputFormat): boolean {
  return format !== 'flac' && format !== 'wav';
}

/** How the parts of each format are put together (see ../merge/merge.ts). */
export type Route = 'mp3-frames' | 'mp4-packets' | 'pcm-encode';

export function routeOf(format: OutputFormat): Route {
  if (format === 'mp3') return 'mp3-frames';
  if (format === 'm4b' || format === 'm4a') return 'mp4-packets';
  return 'pcm-encode';
}

/**
 * Default bit rates (kb/s) by channel count, for encodes with nothing to match. MP3 output first
 * matches the copied MP3s' own rate (see mp3-plan.ts); these are its floor when there are none.
 */
const DEFAULT_KBPS: Record<Exclude<OutputFormat, 'flac' | 'wav'>, { mono: number; stereo: number }> = {
  mp3: { mono: 64, stereo: 128 },
  m4b: { mono: 64, stereo: 128 },
  m4a: { mono: 64, stereo: 128 },
  opus: { mono: 48, stereo: 96 },
  ogg: { mono: 96, stereo: 160 },
};

export function defaultBitRateKbps(format: OutputFormat, channels: number): number | undefined {
  if (!isLossy(format)) return undefined;
  const d = DEFAULT_KBPS[format as keyof typeof DEFAULT_KBPS];
  return channels === 1 ? d.mono : d.stereo;
}

/** Bit rates --bitrate accepts (kb/s): what every lossy encoder here takes at some setting. */
export const BITRATE_RANGE = { min: 8, max: 320 } as const;

/** Lines for --help: each lossy format's default bit rate. */
export function bitRateDefaultsText(): string {
  return (Object.keys(DEFAULT_KBPS) as (keyof typeof DEFAULT_KBPS)[])
    .map((f) => `${f} ${DEFAULT_KBPS[f].stereo} (mono ${DEFAULT_KBPS[f].mono})`)
    .join(', ');
}

/** ffmpeg's muxer name for each format. */
export const MUXER: Record<OutputFormat, string> = {
  mp3: 'mp3',
  m4b: 'ipod',
  m4a: 'ipod',
  opus: 'opus',
  ogg: 'ogg',
  flac: 'flac',
  wav: 'wav',
};
