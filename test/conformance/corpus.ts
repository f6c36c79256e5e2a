// The conformance corpus: audio files made by the encoders people's files come from (LAME, ffmpeg's
// AAC, ALAC and FLAC, the reference `flac`, `oggenc`, `opusenc`, WAV of every depth and layout), at
// the lengths people have, made on demand and cached in a folder keyed by a hash of each recipe
// (CORPUS_DIR, default under the system's temporary folder). Nothing here is committed but the recipes.
//
// Every file carries its markers (decision 0037): a steady sine of its voice's frequency (A 440 Hz,
// B 660 Hz, C 880 Hz) from its first sample to its last, faded in and out over 4 ms. A case puts
// inputs of different voices next to each other, so where each input lands in an output is where its
// frequency rises (found by measure.ts on the decoded output), and the 4 ms fades make every join of
// two whole inputs silent in the source: any jump there is the merger's.
//
// `npx tsx test/conformance/corpus.ts` makes the whole corpus and lists it.
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { resolveToolPaths } from '../../src/engine/ffmpeg/tools.js';

const exec = promisify(execFile);

/**
 * The corpus is made and measured with the system's ffmpeg (what made people's files), never the
 * engine's FFMPEG_PATH: a run of the engine on the npm fallback still gets the same corpus.
 */
export const refTools = resolveToolPaths({ PATH: process.env.PATH });

/** Bumped when the way any file is made changes, so no stale file is reused. */
const GENERATOR_VERSION = 1;

export const VOICES = { A: 440, B: 660, C: 880 } as const;
export type Voice = keyof typeof VOICES;

/** The level of the markers' sine in dBFS (peak), unless a recipe says otherwise. */
export const DEFAULT_LEVEL_DB = -9;
/** The fade at each end of every file, seconds. */
export const EDGE_FADE = 0.004;

export type Family = 'mp3' | 'aac' | 'alac' | 'flac' | 'wav' | 'vorbis' | 'opus';

/** How one kind of file is made: the source WAV's shape, then the encoder's step. */
export interface Kind {
  name: string;
  family: Family;
  ext: string;
  /** The source's (and for PCM kinds, the file's) sample rate and channels. */
  rate: number;
  channels: number;
  /** What a person's file of this kind came from, for the listing. */
  made: string;
  /** The encoder's command, as a recipe: it is part of the cache key. */
  encode: (src: string, out: string, extra: Extras) => Promise<void>;
  /** Chapters the file carries of its own (seconds from its start), as written. */
  chapters?: (seconds: number) => number[];
  /** The source's sample format for ffmpeg when it is not s16 (deep kinds). */
  sourceFormat?: string;
  /** The fade at each end of its source, seconds, where EDGE_FADE's would not survive the encoder. */
  edgeFade?: number;
}

interface Extras {
  title: string;
  cover: string;
}

async function run(bin: string, args: string[]): Promise<void> {
  await exec(bin, args, { maxBuffer: 64 << 20 });
}

const ffmpeg = (args: string[]) => run(refTools.ffmpeg, ['-hide_banner', '-v', 'error', '-y', ...args]);

const lame =
  (...flags: string[]) =>
  (src: string, out: string, x: Extras) =>
    run('lame', ['--quiet', '--noreplaygain', ...flags, '--tt', x.title, src, out]);

/** ffmpeg from the source WAV with these output arguments. */
const ff =
  (...args: string[]) =>
  (src: string, out: string, x: Extras) =>
    ffmpeg(['-i', src, ...args, '-metadata', `title=${x.title}`, out]);

/** APEv2 items appended after the frames (what foobar2000 and mp3gain leave), after an ID3v1 tag's place. */
function apeTag(title: string): Buffer {
  const item = (key: string, value: string) => {
    const v = Buffer.from(value, 'utf8');
    const head = Buffer.alloc(8);
    head.writeUInt32LE(v.length, 0);
    return Buffer.concat([head, Buffer.from(`${key}\0`, 'latin1'), v]);
  };
  const items = Buffer.concat([item('Title', title), item('Artist', 'Conformance')]);
  const frame = (flags: number) => {
    const b = Buffer.alloc(32);
    b.write('APETAGEX', 0, 'latin1');
    b.writeUInt32LE(2000, 8);
    b.writeUInt32LE(items.length + 32, 12);
    b.writeUInt32LE(2, 16);
    b.writeUInt32LE(flags, 20);
    return b;
  };
  // Header (bit 29: this is the header; bit 31: a header exists), items, footer.
  return Buffer.concat([frame(0xa0000000), items, frame(0x80000000)]);
}

const withApe = (flags: string[]) => async (src: string, out: string, x: Extras) => {
  await lame(...flags)(src, out, x);
  await writeFile(out, Buffer.concat([await readFile(out), apeTag(x.title)]));
};

/** An ffmetadata file with chapters at `starts` (seconds) and the file's title. */
async function chapterMeta(file: string, title: string, starts: number[], seconds: number) {
  const ms = (s: number) => Math.round(s * 1000);
  const lines = [';FFMETADATA1', `title=${title}`];
  starts.forEach((s, i) => {
    const end = i + 1 < starts.length ? starts[i + 1] : seconds;
    lines.push('[CHAPTER]', 'TIMEBASE=1/1000', `START=${ms(s)}`, `END=${ms(end)}`, `title=Inner ${i + 1}`);
  });
  await writeFile(file, `${lines.join('\n')}\n`);
}

/** Three chapters of its own: at 0, a third and two thirds in (whole milliseconds). */
const thirds = (seconds: number) =>
  [0, seconds / 3, (2 * seconds) / 3].map((s) => Math.round(s * 1000) / 1000);

const m4bWithChapters = async (src: string, out: string, x: Extras) => {
  const seconds = await sourceSeconds(src);
  const meta = `${out}.ffmeta`;
  await chapterMeta(meta, x.title, thirds(seconds), seconds);
  await ffmpeg(
    ['-i', src, '-i', meta, '-map', '0:a', '-map_metadata', '1', '-map_chapters', '1'].concat([
      '-c:a',
      'aac',
      '-b:a',
      '96k',
      '-f',
      'ipod',
      out,
    ]),
  );
  await rm(meta, { force: true });
};

async function sourceSeconds(src: string): Promise<number> {
  const { stdout } = await exec(refTools.ffprobe, [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    src,
  ]);
  return Number(stdout.trim());
}

const flacTool =
  (...flags: string[]) =>
  (src: string, out: string, x: Extras) =>
    run('flac', ['--silent', '--force', ...flags, `--tag=TITLE=${x.title}`, '-o', out, src]);

const ffmpegFlacWithPicture = (src: string, out: string, x: Extras) =>
  ffmpeg(
    ['-i', src, '-i', x.cover, '-map', '0:a', '-map', '1:v', '-c:a', 'flac', '-c:v', 'copy'].concat([
      '-disposition:v',
      'attached_pic',
      '-metadata',
      `title=${x.title}`,
      out,
    ]),
  );

const oggenc =
  (...flags: string[]) =>
  (src: string, out: string, x: Extras) =>
    run('oggenc', ['--quiet', ...flags, '-t', x.title, '-o', out, src]);

const opusenc =
  (...flags: string[]) =>
  (src: string, out: string, x: Extras) =>
    run('opusenc', ['--quiet', ...flags, '--title', x.title, src, out]);

const mp3 = (name: string, rate: number, channels: number, made: string, encode: Kind['encode']): Kind => ({
  name,
  family: 'mp3',
  ext: 'mp3',
  rate,
  channels,
  made,
  encode,
});

/** Every kind of file in the corpus. Names are stable: the matrix's cases name them. */
export const KINDS: Kind[] = [
  // LAME, as most MP3s are made: CBR, VBR, ABR, mono, MPEG-2 and 2.5 rates, every tag kind.
  mp3('lame-cbr128', 44100, 2, 'lame -b 128', lame('-b', '128')),
  mp3('lame-cbr64', 44100, 2, 'lame -b 64 (LAME resamples to 24 kHz)', lame('-b', '64')),
  mp3('lame-cbr320', 44100, 2, 'lame -b 320', lame('-b', '320')),
  mp3('lame-v0', 44100, 2, 'lame -V 0', lame('-V', '0')),
  mp3('lame-v5', 48000, 2, 'lame -V 5 at 48 kHz', lame('-V', '5')),
  mp3('lame-v9', 44100, 2, 'lame -V 9 (LAME resamples to 22.05 kHz)', lame('-V', '9')),
  mp3('lame-abr96', 44100, 2, 'lame --abr 96 (LAME resamples to 32 kHz)', lame('--abr', '96')),
  mp3('lame-mono64', 44100, 1, 'lame -m m -b 64', lame('-m', 'm', '-b', '64')),
  mp3('lame-mpeg2-22k', 22050, 1, 'lame -b 48, MPEG-2 22.05 kHz mono', lame('-m', 'm', '-b', '48')),
  mp3('lame-mpeg2-24k', 24000, 2, 'lame -V 4, MPEG-2 24 kHz', lame('-V', '4')),
  mp3('lame-mpeg25-8k', 8000, 1, 'lame -b 16, MPEG-2.5 8 kHz mono', lame('-m', 'm', '-b', '16')),
  mp3('lame-mpeg25-11k', 11025, 1, 'lame -b 24, MPEG-2.5 11.025 kHz', lame('-m', 'm', '-b', '24')),
  mp3('lame-mpeg25-12k', 12000, 2, 'lame -V 7, MPEG-2.5 12 kHz', lame('-V', '7')),
  mp3('lame-id3v1', 44100, 2, 'lame -b 128 --id3v1-only', lame('-b', '128', '--id3v1-only')),
  mp3('lame-id3v2', 44100, 2, 'lame -b 128 --id3v2-only', lame('-b', '128', '--id3v2-only')),
  mp3('lame-ape', 44100, 2, 'lame -b 128, then an APEv2 tag', withApe(['-b', '128', '--id3v2-only'])),
  {
    ...mp3('lame-art', 44100, 2, 'lame -V 2 --ti cover.png', lame('-V', '2')),
    encode: (src, out, x) => lame('-V', '2', '--ti', x.cover)(src, out, x),
  },
  // ffmpeg's AAC (what most M4A and M4B files of converters are), and ALAC.
  {
    name: 'aac-44k',
    family: 'aac',
    ext: 'm4a',
    rate: 44100,
    channels: 2,
    made: 'ffmpeg -c:a aac -b:a 128k',
    encode: ff('-c:a', 'aac', '-b:a', '128k'),
  },
  {
    name: 'aac-48k',
    family: 'aac',
    ext: 'm4a',
    rate: 48000,
    channels: 2,
    made: 'ffmpeg aac 48 kHz 160k',
    encode: ff('-c:a', 'aac', '-b:a', '160k'),
  },
  {
    name: 'aac-22k-mono',
    family: 'aac',
    ext: 'm4a',
    rate: 22050,
    channels: 1,
    made: 'ffmpeg aac 22.05 kHz mono 48k',
    encode: ff('-c:a', 'aac', '-b:a', '48k'),
  },
  {
    name: 'aac-32k-mono',
    family: 'aac',
    ext: 'm4a',
    rate: 32000,
    channels: 1,
    made: 'ffmpeg aac 32 kHz mono 64k',
    encode: ff('-c:a', 'aac', '-b:a', '64k'),
  },
  {
    name: 'aac-24k',
    family: 'aac',
    ext: 'm4b',
    rate: 24000,
    channels: 2,
    made: 'ffmpeg aac 24 kHz 64k, m4b',
    encode: ff('-c:a', 'aac', '-b:a', '64k', '-f', 'ipod'),
  },
  {
    name: 'aac-m4b-chapters',
    family: 'aac',
    ext: 'm4b',
    rate: 44100,
    channels: 2,
    made: 'ffmpeg aac 96k m4b, 3 chapters',
    encode: m4bWithChapters,
    chapters: thirds,
  },
  {
    name: 'alac-44k',
    family: 'alac',
    ext: 'm4a',
    rate: 44100,
    channels: 2,
    made: 'ffmpeg -c:a alac',
    encode: ff('-c:a', 'alac'),
  },
  {
    name: 'alac-48k-mono',
    family: 'alac',
    ext: 'm4a',
    rate: 48000,
    channels: 1,
    made: 'ffmpeg alac 48 kHz mono',
    encode: ff('-c:a', 'alac'),
  },
  // FLAC as CD rips and downloads come: the reference encoder and ffmpeg's, 16 and 24 bit.
  {
    name: 'flac-16-44k',
    family: 'flac',
    ext: 'flac',
    rate: 44100,
    channels: 2,
    made: 'flac -5',
    encode: flacTool(),
  },
  {
    name: 'flac-16-48k-noseek',
    family: 'flac',
    ext: 'flac',
    rate: 48000,
    channels: 2,
    made: 'flac --no-seektable',
    encode: flacTool('--no-seektable'),
  },
  {
    name: 'flac-24-88k',
    family: 'flac',
    ext: 'flac',
    rate: 88200,
    channels: 2,
    made: 'flac -8, 24 bit 88.2 kHz',
    encode: flacTool('-8'),
    sourceFormat: 's32',
  },
  {
    name: 'flac-24-96k-pic',
    family: 'flac',
    ext: 'flac',
    rate: 96000,
    channels: 2,
    made: 'flac --picture, 24 bit 96 kHz',
    encode: (src, out, x) => flacTool(`--picture=${x.cover}`)(src, out, x),
    sourceFormat: 's32',
  },
  {
    name: 'ffflac-16-44k-pic',
    family: 'flac',
    ext: 'flac',
    rate: 44100,
    channels: 2,
    made: 'ffmpeg -c:a flac, a picture',
    encode: ffmpegFlacWithPicture,
  },
  {
    name: 'ffflac-24-48k-mono',
    family: 'flac',
    ext: 'flac',
    rate: 48000,
    channels: 1,
    made: 'ffmpeg flac 24 bit mono',
    encode: ff('-c:a', 'flac', '-sample_fmt', 's32'),
    sourceFormat: 's32',
  },
  // WAV of every depth, and the extensible header (24 bit, more than two channels).
  {
    name: 'wav-u8-mono-22k',
    family: 'wav',
    ext: 'wav',
    rate: 22050,
    channels: 1,
    made: '8-bit unsigned',
    encode: ff('-c:a', 'pcm_u8'),
  },
  {
    name: 'wav-16-44k',
    family: 'wav',
    ext: 'wav',
    rate: 44100,
    channels: 2,
    made: '16-bit',
    encode: ff('-c:a', 'pcm_s16le'),
  },
  {
    name: 'wav-24-48k-ext',
    family: 'wav',
    ext: 'wav',
    rate: 48000,
    channels: 2,
    made: '24-bit, WAVE_FORMAT_EXTENSIBLE',
    encode: ff('-c:a', 'pcm_s24le'),
    sourceFormat: 's32',
  },
  {
    name: 'wav-f32-44k',
    family: 'wav',
    ext: 'wav',
    rate: 44100,
    channels: 2,
    made: '32-bit float',
    encode: ff('-c:a', 'pcm_f32le'),
    sourceFormat: 'flt',
  },
  {
    name: 'wav-16-48k-5.1',
    family: 'wav',
    ext: 'wav',
    rate: 48000,
    channels: 6,
    made: '16-bit 5.1, extensible',
    encode: ff('-c:a', 'pcm_s16le'),
  },
  {
    name: 'wav-16-44k-quad',
    family: 'wav',
    ext: 'wav',
    rate: 44100,
    channels: 4,
    made: '16-bit quad, extensible',
    encode: ff('-c:a', 'pcm_s16le'),
  },
  // Vorbis and Opus from their reference encoders.
  {
    name: 'oggenc-q3-44k',
    family: 'vorbis',
    ext: 'ogg',
    rate: 44100,
    channels: 2,
    made: 'oggenc -q 3',
    encode: oggenc('-q', '3'),
  },
  {
    name: 'oggenc-q0-22k-mono',
    family: 'vorbis',
    ext: 'ogg',
    rate: 22050,
    channels: 1,
    made: 'oggenc -q 0, 22.05 kHz mono',
    encode: oggenc('-q', '0'),
    // At q0 oggenc smears a 4 ms fade into its block: oggdec's decode then starts at -0.055 and
    // ends at -0.07 of full scale, a step in the file itself that the join check would blame on
    // the join. Faded over 20 ms its ends decode to silence (under 0.005), as every other kind's.
    edgeFade: 0.02,
  },
  {
    name: 'oggenc-q6-48k',
    family: 'vorbis',
    ext: 'ogg',
    rate: 48000,
    channels: 2,
    made: 'oggenc -q 6, 48 kHz',
    encode: oggenc('-q', '6'),
  },
  {
    name: 'opusenc-96k',
    family: 'opus',
    ext: 'opus',
    rate: 48000,
    channels: 2,
    made: 'opusenc --bitrate 96',
    encode: opusenc('--bitrate', '96'),
  },
  {
    name: 'opusenc-44k-source',
    family: 'opus',
    ext: 'opus',
    rate: 44100,
    channels: 2,
    made: 'opusenc from a 44.1 kHz WAV',
    encode: opusenc('--bitrate', '64'),
  },
  {
    name: 'opusenc-mono-24k',
    family: 'opus',
    ext: 'opus',
    rate: 16000,
    channels: 1,
    made: 'opusenc --speech 24k from 16 kHz mono',
    encode: opusenc('--bitrate', '24', '--speech'),
  },
];

export const kindByName = (name: string): Kind => {
  const k = KINDS.find((x) => x.name === name);
  if (!k) throw new Error(`no corpus kind ${name}`);
  return k;
};

/** One file of the corpus: which kind, voice, length and level. */
export interface Recipe {
  kind: string;
  voice: Voice;
  seconds: number;
  /** Peak level of the sine, dBFS. */
  levelDb?: number;
  /**
   * A 30 ms swell of the tone to this peak (dBFS) at 40% of the file (Hann-shaped, no edge): a
   * peak far above the tone's level, which a loudness gain pushes past full scale.
   */
  burstDb?: number;
}

/** A made file, and what its reference decode holds. */
export interface CorpusFile {
  recipe: Recipe;
  file: string;
  frequency: number;
  /** Its decoded length (the system ffmpeg's decode, delay and padding removed; oggdec's for Vorbis), seconds. */
  seconds: number;
  /** Its decoded sample rate and channels. */
  rate: number;
  channels: number;
  /** Chapters it carries of its own, seconds from its start. */
  chapters?: number[];
  /**
   * Seconds before its tone rises in the reference decode: what an encoder put ahead of the audio
   * and the file does not say (a LAME file too small for its tag), else 0.
   */
  lead: number;
  /** Its title tag. */
  title: string;
}

export const corpusDir = () =>
  process.env.CORPUS_DIR ?? path.join(os.tmpdir(), 'audio-merge-conformance-corpus');

const fmtSeconds = (s: number) => String(s).replace('.', 'p');

function cacheName(r: Recipe): string {
  const kind = kindByName(r.kind);
  const key = JSON.stringify({
    v: GENERATOR_VERSION,
    r,
    made: kind.made,
    // The encoder step's source without its layout: reformatting the code reuses the files.
    encode: kind.encode.toString().replace(/\s+/g, ''),
    rate: kind.rate,
    channels: kind.channels,
    fmt: kind.sourceFormat,
    fade: kind.edgeFade,
    // Vorbis files are measured by oggdec (sidecars made before that hold ffmpeg 5.1's short count).
    ...(kind.family === 'vorbis' ? { reference: 'oggdec' } : {}),
  });
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 10);
  return `${r.kind}-${r.voice}-${fmtSeconds(r.seconds)}s${r.levelDb !== undefined ? `-${-r.levelDb}dB` : ''}${r.burstDb !== undefined ? '-burst' : ''}-${hash}`;
}

async function exists(f: string): Promise<boolean> {
  return stat(f).then(
    (s) => s.size > 0,
    () => false,
  );
}

/** The source: the voice's sine at the kind's rate, channels and depth, faded in and out over 4 ms. */
async function makeSource(r: Recipe, kind: Kind, wav: string): Promise<void> {
  const level = r.levelDb ?? DEFAULT_LEVEL_DB;
  // lavfi's sine is at 1/8 of full scale (-18.06 dBFS): the volume brings it to `level`.
  const gain = 10 ** ((level + 18.0618) / 20);
  const fade = kind.edgeFade ?? EDGE_FADE;
  const fadeOut = Math.max(0, r.seconds - fade);
  const burst = (at: number, peakDb: number) => {
    const extra = 10 ** ((peakDb - level) / 20) - 1;
    return `aeval='val(0)*(1+${extra.toFixed(4)}*0.5*(1-cos(2*PI*(t-${at})/0.03))*between(t,${at},${at + 0.03}))'`;
  };
  const filter = [
    `volume=${gain.toFixed(6)}`,
    ...(r.burstDb !== undefined ? [burst(Math.round(r.seconds * 400) / 1000, r.burstDb)] : []),
    `afade=t=in:d=${fade}:curve=hsin`,
    `afade=t=out:st=${fadeOut}:d=${fade}:curve=hsin`,
  ].join(',');
  const codec =
    kind.sourceFormat === 'flt' ? 'pcm_f32le' : kind.sourceFormat === 's32' ? 'pcm_s24le' : 'pcm_s16le';
  await ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${VOICES[r.voice]}:sample_rate=${kind.rate}:duration=${r.seconds}`,
    '-af',
    filter,
    '-ac',
    String(kind.channels),
    '-c:a',
    codec,
    // Above two channels ffmpeg needs a layout to write a WAV: the usual one of that count.
    ...(kind.channels > 2 ? ['-channel_layout', kind.channels === 6 ? '5.1' : 'quad'] : []),
    wav,
  ]);
}

/** Scratch names of this process's own, so two runs (or two workers) making one file never meet. */
const scratch = (base: string, ext: string) =>
  `${base}.${process.pid}-${Math.random().toString(36).slice(2, 8)}.${ext}`;

/** The cover the tagged kinds embed, made once per folder (the first caller's promise serves all). */
const covers = new Map<string, Promise<string>>();
function cover(dir: string): Promise<string> {
  const file = path.join(dir, 'cover-v1.png');
  if (!covers.has(dir))
    covers.set(
      dir,
      (async () => {
        if (await exists(file)) return file;
        const tmp = scratch(file, 'png');
        await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x3366aa:s=300x300', '-frames:v', '1', tmp]);
        await rename(tmp, file);
        return file;
      })(),
    );
  return covers.get(dir)!;
}

/** The reference decode's length (samples at its own rate), rate and channels, streamed (no file in memory). */
export async function referenceDecode(
  file: string,
): Promise<{ samples: number; rate: number; channels: number }> {
  const { stdout } = await exec(refTools.ffprobe, [
    '-v',
    'error',
    '-select_streams',
    'a:0',
    '-show_entries',
    'stream=sample_rate,channels',
    '-of',
    'json',
    file,
  ]);
  const s = (JSON.parse(stdout) as { streams: { sample_rate: string; channels: number }[] }).streams[0];
  // An Ogg Vorbis file plays its last granule's count of samples: oggdec, the reference decoder,
  // plays exactly that, where ffmpeg 5.1 decodes some oggenc files short or long of it.
  const vorbis = file.endsWith('.ogg');
  const bytes = await new Promise<number>((resolve, reject) => {
    const child = spawn(
      vorbis ? 'oggdec' : refTools.ffmpeg,
      vorbis
        ? ['--quiet', '--raw', '--bits', '16', '--output', '-', file]
        : ['-v', 'error', '-i', file, '-map', '0:a:0', '-ac', '1', '-f', 'f32le', '-'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let n = 0;
    let err = '';
    child.stdout.on('data', (c: Buffer) => (n += c.length));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(n) : reject(new Error(`decode of ${file}: ${err}`))));
  });
  const frame = vorbis ? 2 * s.channels : 4;
  return { samples: bytes / frame, rate: Number(s.sample_rate), channels: s.channels };
}

/** Where a file's tone first reaches half its level, in its first half second (an 8 kHz decode). */
async function leadOf(file: string): Promise<number> {
  const { stdout } = await exec(
    refTools.ffmpeg,
    ['-v', 'error', '-i', file, '-t', '0.5', '-ac', '1', '-ar', '8000', '-f', 'f32le', '-'],
    { encoding: 'buffer', maxBuffer: 16 << 20 },
  );
  const buf = stdout as Buffer;
  const pcm = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + (buf.length & ~3)));
  const peak = pcm.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const at = pcm.findIndex((v) => Math.abs(v) >= peak / 2);
  return Math.max(0, at) / 8000;
}

/** The file of `recipe`, made now unless the cache holds it (its sidecar JSON is written last). */
export async function corpusFile(r: Recipe, dir = corpusDir()): Promise<CorpusFile> {
  const kind = kindByName(r.kind);
  await mkdir(dir, { recursive: true });
  const base = path.join(dir, cacheName(r));
  const file = `${base}.${kind.ext}`;
  const sidecar = `${base}.json`;
  if (await exists(sidecar)) return JSON.parse(await readFile(sidecar, 'utf8')) as CorpusFile;
  const title = `${r.kind} ${r.voice}`;
  const wav = scratch(base, 'src.wav');
  const partial = scratch(base, `partial.${kind.ext}`);
  try {
    await makeSource(r, kind, wav);
    await kind.encode(wav, partial, { title, cover: await cover(dir) });
    await rename(partial, file);
  } finally {
    await rm(wav, { force: true });
    await rm(partial, { force: true });
  }
  const ref = await referenceDecode(file);
  const made: CorpusFile = {
    recipe: r,
    file,
    frequency: VOICES[r.voice],
    seconds: ref.samples / ref.rate,
    rate: ref.rate,
    channels: ref.channels,
    chapters: kind.chapters?.(r.seconds),
    lead: await leadOf(file),
    title,
  };
  const tmp = scratch(sidecar, 'json');
  await writeFile(tmp, JSON.stringify(made, null, 1));
  await rename(tmp, sidecar);
  return made;
}

/** Many recipes, made `concurrency` at a time (each encoder is one process), in their order. */
export async function corpusFiles(
  recipes: Recipe[],
  concurrency = 2,
  dir = corpusDir(),
): Promise<CorpusFile[]> {
  const out: CorpusFile[] = new Array(recipes.length);
  let next = 0;
  const worker = async () => {
    while (next < recipes.length) {
      const i = next++;
      out[i] = await corpusFile(recipes[i], dir);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, recipes.length) }, worker));
  return out;
}

/** Run as a script: make every kind in voices A and B at 8 s, and list them. */
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const recipes = KINDS.flatMap((k) =>
    (['A', 'B'] as Voice[]).map((voice) => ({ kind: k.name, voice, seconds: 8 })),
  );
  const files = await corpusFiles(recipes);
  for (const f of files)
    console.log(
      `${path.basename(f.file)}  ${f.seconds.toFixed(4)} s  ${f.rate} Hz  ${f.channels} ch  (${kindByName(f.recipe.kind).made})`,
    );
  console.log(`corpus in ${corpusDir()}`);
}
