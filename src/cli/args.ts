// Pure: the command line's arguments, parsed or refused with a usage message.
import {
  BITRATE_RANGE,
  formatFromPath,
  isOutputFormat,
  OUTPUT_FORMATS,
  type OutputFormat,
} from '../engine/index.js';
import type { ChapterTitleSource } from '../engine/index.js';
import type { SoundOptions } from '../engine/index.js';
import { nearestOption } from './suggest.js';
import { finishSound, SOUND_FLAGS, SOUND_VALUED, type SoundDraft } from './sound-args.js';
import { CHAPTER_VALUED, finishChapters, type ChapterDraft } from './chapter-args.js';
import type { ChapterOptions } from '../shared/chapter-options.js';
import { parseTrimArg, type TrimRequest } from '../shared/trim-span.js';
import { DETAIL_FLAGS, DETAIL_NAMES, detailProblem, type Details } from '../shared/details.js';
import {
  isChannelChoice,
  isSampleRate,
  SAMPLE_RATE_RANGE,
  type ChannelChoice,
} from '../shared/output-shape.js';

export { HELP, USAGE } from './help.js';

export interface CliArgs extends Details {
  output: string;
  inputs: string[];
  json: boolean;
  quiet: boolean;
  /** Exit 1 without writing when OUT exists. */
  noClobber: boolean;
  format: OutputFormat;
  bitRateKbps?: number;
  chapters: boolean;
  chapterTitles?: ChapterTitleSource;
  inputChapters?: 'keep' | 'flatten';
  /** A chapters file to read (`START TITLE` lines). */
  chaptersFile?: string;
  cover?: string;
  channels?: ChannelChoice;
  sampleRate?: number;
  /** The sound options given (absent when none was). */
  sound?: SoundOptions;
  /** The --trim spans, as given (checked against the inputs once they are read). */
  trims?: TrimRequest[];
  /** The chapter-finding and parts options given (absent when none was). */
  chapterOptions?: ChapterOptions;
}

export type ParsedArgs =
  { kind: 'run'; args: CliArgs } | { kind: 'help' } | { kind: 'usage'; message: string };

type Draft = Partial<CliArgs> & {
  inputs: string[];
  formatName?: string;
  soundDraft: SoundDraft;
  chapterDraft: ChapterDraft;
};
/** Each option that takes a value: store it in the draft, or say what is wrong with it. */
type Setter = (d: Draft, v: string) => string | undefined;

const detailSetters: [string, Setter][] = DETAIL_NAMES.map((name) => [
  DETAIL_FLAGS[name],
  (d, v) => {
    const wrong = detailProblem(name, v);
    if (wrong) return `${DETAIL_FLAGS[name]} ${wrong}`;
    d[name] = v;
  },
]);

/** A whole number as a person writes one in decimal (`128`, not `1e2`, `0x80` or ` 128`); NaN otherwise. */
const wholeNumber = (text: string): number => (/^\d{1,9}$/.test(text) ? Number(text) : NaN);

const VALUED: Record<string, Setter> = {
  '-o': (d, v) =>
    d.output !== undefined
      ? 'only one output (-o) may be given'
      : v
        ? void (d.output = v)
        : '-o needs a file name',
  ...Object.fromEntries(detailSetters),
  '--cover': (d, v) => (v ? void (d.cover = v) : '--cover needs an image file'),
  '--format': (d, v) =>
    isOutputFormat(v.toLowerCase())
      ? void (d.formatName = v.toLowerCase())
      : `--format must be one of ${OUTPUT_FORMATS.join(', ')} (not ${JSON.stringify(v)})`,
  '--bitrate': (d, v) => {
    const n = wholeNumber(v.replace(/k$/i, ''));
    if (!Number.isInteger(n) || n < BITRATE_RANGE.min || n > BITRATE_RANGE.max)
      return `--bitrate must be a whole number of kb/s from ${BITRATE_RANGE.min} to ${BITRATE_RANGE.max} (not ${JSON.stringify(v)})`;
    d.bitRateKbps = n;
  },
  '--trim': (d, v) => {
    const t = parseTrimArg(v);
    if (!t.ok) return `--trim ${v}: ${t.reason}`;
    (d.trims ??= []).push(t.trim);
  },
  '--chapter-titles': (d, v) =>
    v === 'tags' || v === 'files'
      ? void (d.chapterTitles = v)
      : `--chapter-titles must be tags or files (not ${JSON.stringify(v)})`,
  '--input-chapters': (d, v) =>
    v === 'keep' || v === 'flatten'
      ? void (d.inputChapters = v)
      : `--input-chapters must be keep or flatten (not ${JSON.stringify(v)})`,
  '--chapters': (d, v) => (v ? void (d.chaptersFile = v) : '--chapters needs a file'),
  '--channels': (d, v) => {
    const n = wholeNumber(v);
    if (!isChannelChoice(n)) return `--channels must be 1 or 2 (not ${JSON.stringify(v)})`;
    d.channels = n;
  },
  '--sample-rate': (d, v) => {
    const n = wholeNumber(v.replace(/hz$/i, ''));
    if (!isSampleRate(n))
      return `--sample-rate must be a whole number of Hz from ${SAMPLE_RATE_RANGE.min} to ${SAMPLE_RATE_RANGE.max} (not ${JSON.stringify(v)})`;
    d.sampleRate = n;
  },
};
VALUED['--output'] = (d, v) => VALUED['-o'](d, v)?.replace('-o needs', '--output needs');
for (const [name, set] of Object.entries(SOUND_VALUED)) VALUED[name] = (d, v) => set(d.soundDraft, v);
for (const [name, set] of Object.entries(CHAPTER_VALUED)) VALUED[name] = (d, v) => set(d.chapterDraft, v);

const FLAGS: Record<string, (d: Draft) => void> = {
  '--json': (d) => void (d.json = true),
  '-q': (d) => void (d.quiet = true),
  '--quiet': (d) => void (d.quiet = true),
  '--no-chapters': (d) => void (d.chapters = false),
  '-n': (d) => void (d.noClobber = true),
  '--no-clobber': (d) => void (d.noClobber = true),
};
for (const [name, set] of Object.entries(SOUND_FLAGS)) FLAGS[name] = (d) => set(d.soundDraft);

/** Every option the parser accepts, as typed (for the usage line and help to name them all). */
export const OPTION_NAMES: readonly string[] = [
  ...Object.keys(VALUED),
  ...Object.keys(FLAGS),
  '-h',
  '--help',
];

function unknownOption(typed: string): string {
  const meant = nearestOption(typed, OPTION_NAMES);
  return `unknown option ${typed}${meant ? `; did you mean ${meant}?` : ''}`;
}

/**
 * The format --format names, else OUT's extension; a usage message when neither names one. A
 * folder names no format either, but the merge then says why it cannot be written (exit 1).
 */
function resolveFormat(d: Draft, isFolder: (p: string) => boolean): OutputFormat | string {
  if (d.formatName) return d.formatName as OutputFormat;
  const byName = formatFromPath(d.output!);
  if (byName) return byName;
  if (/[\\/]$/.test(d.output!) || isFolder(d.output!)) return 'mp3';
  const ext = /\.([^./\\]+)$/.exec(d.output!)?.[1];
  return `${ext ? `the output's extension .${ext}` : 'an output with no extension'} names no format: use one of ${OUTPUT_FORMATS.map((f) => `.${f}`).join(', ')}, or --format`;
}

function finish(d: Draft, isFolder: (p: string) => boolean): ParsedArgs {
  if (d.output === undefined) return { kind: 'usage', message: 'no output given (-o OUT.mp3)' };
  if (d.inputs.length === 0) return { kind: 'usage', message: 'no inputs given' };
  const format = resolveFormat(d, isFolder);
  if (!isOutputFormat(format)) return { kind: 'usage', message: format };
  const sound = finishSound(d.soundDraft);
  if (!sound.ok) return { kind: 'usage', message: sound.usage };
  const chapters = finishChapters(d.chapterDraft);
  if (!chapters.ok) return { kind: 'usage', message: chapters.usage };
  const { formatName: _, soundDraft: __, chapterDraft: ___, ...rest } = d;
  const given = {
    ...(Object.keys(sound.options).length > 0 ? { sound: sound.options } : {}),
    ...(Object.keys(chapters.options).length > 0 ? { chapterOptions: chapters.options } : {}),
  };
  return {
    kind: 'run',
    args: {
      json: false,
      quiet: false,
      noClobber: false,
      chapters: true,
      ...rest,
      output: d.output,
      format,
      ...given,
    },
  };
}

/** `isFolder` tells whether OUT is an existing folder (the one fact looked up outside). */
export function parseArgs(
  argv: readonly string[],
  isFolder: (p: string) => boolean = () => false,
): ParsedArgs {
  const d: Draft = { inputs: [], soundDraft: {}, chapterDraft: {} };
  let options = true;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!options || a === '-' || !a.startsWith('-')) {
      d.inputs.push(a);
      continue;
    }
    if (a === '--') {
      options = false;
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq >= 0 ? a.slice(0, eq) : a;
    if (name === '-h' || name === '--help') return { kind: 'help' };
    if (FLAGS[name] && eq < 0) {
      FLAGS[name](d);
      continue;
    }
    const set = VALUED[name];
    if (!set) return { kind: 'usage', message: unknownOption(a) };
    const value = eq >= 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined)
      return {
        kind: 'usage',
        message: name === '-o' || name === '--output' ? `${name} needs a file name` : `${name} needs a value`,
      };
    const wrong = set(d, value);
    if (wrong) return { kind: 'usage', message: wrong };
  }
  return finish(d, isFolder);
}
