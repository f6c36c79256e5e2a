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

/**
 * libvorbis' nominal bit rates (kb/s, 44.1 kHz stereo) of its quality levels -1 to 10. Its
 * managed (bit rate) mode takes only what its tables hold for the input's rate and channels
 * (8 kHz mono: 8-42 kb/s; 22.05 kHz mono: 16-90; above 50 kHz nothing at all), so a bit rate that
 * suits 44.1 kHz stereo is refused elsewhere; a quality level is taken at every rate and channel
 * count, and at 44.1 kHz its bit rate is the managed mode's (160 kb/s stereo measured the same).
 */
const VORBIS_NOMINAL_KBPS = [45, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 500];

/**
 * The Vorbis quality level (-1 to 10, one decimal) whose nominal bit rate is `kbps` for `channels`
 * channels: each channel's share, counted as one of a stereo pair, interpolated in libvorbis' table.
 */
export function vorbisQuality(kbps: number, channels: number): number {
  const stereo = (kbps / Math.max(1, channels)) * 2;
  const table = VORBIS_NOMINAL_KBPS;
  if (stereo <= table[0]) return -1;
  if (stereo >= table[table.length - 1]) return 10;
  const k = table.findIndex((v) => v >= stereo) - 1;
  const q = k - 1 + (stereo - table[k]) / (table[k + 1] - table[k]);
  return Math.round(q * 10) / 10;
}

/** libopus takes at most 256 kb/s a channel (320 kb/s mono is refused). */
export function opusKbps(kbps: number, channels: number): number {
  return Math.min(kbps, 256 * Math.max(1, channels));
}

/** Lines for --help: each lossy format's default bit rate. */
export function bitRateDefaultsText(): string {
  return (Object.keys(DEFAULT_KBPS) as (keyof typeof DEFAULT_KBPS)[])
    .map((f) => `${f} ${DEFAULT_KBPS[f].stereo} (mono ${DEFAULT_KBPS[f].mono})`)
    .join(', ');
}
