// Pure: the output's ftyp and moov boxes: one AAC track (packets from every part, the first
// part's priming skipped by an edit list), a QuickTime chapter text track that Apple's players
// read, a Nero chpl box that others read, and iTunes-style tags with the cover.
import { box, fullBox, u16, u32, u64, u8 } from './boxes.js';

export interface MoovChapter {
  title: string;
  /** Seconds from the start of the presented audio. */
  start: number;
}

/** Text tags by the names ffprobe reads them under (title, artist, album_artist, composer, ...). */
export interface Mp4Tags {
  text?: Record<string, string | undefined>;
  cover?: { mime: 'image/jpeg' | 'image/png'; data: Buffer };
}

export interface MoovLayout {
  brand: 'M4B ' | 'M4A ';
  sampleRate: number;
  sampleEntry: Buffer;
  sizes: Uint32Array;
  /** Packets per chunk and each chunk's file offset (one chunk per part). */
  chunkSamples: number[];
  chunkOffsets: number[];
  /** Duration of the last packet (a full frame unless the source cut it short). */
  lastDelta: number;
  priming: number;
  /** Samples presented (after the priming). */
  presented: number;
  chapters: MoovChapter[];
  /** The chapter samples, each its own chunk (some readers expect one sample per chunk), and where the first lies. */
  chapterSizes: number[];
  chapterOffset: number;
  tags: Mp4Tags;
  wide: boolean;
}

const FRAME = 1024;
const MATRIX = Buffer.concat([0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000].map(u32));
// The QuickTime text media header and sample description, as ffmpeg and iTunes write them.
const GMHD = Buffer.from(
  '0000004c676d686400000018676d696e000000000040800080008000000000000000002c74657874000100000000000000000000000000000001000000000000000000000000000040000000',
  'hex',
);
const TEXT_ENTRY = Buffer.from(
  '0000003b7465787400000000000000010000000100000000000000000000000000000000000000010000000000000000000d667461620001000100',
  'hex',
);
const ENCD = Buffer.from('0000000c656e636400000100', 'hex');

export function ftyp(brand: string): Buffer {
  return box('ftyp', Buffer.from(brand, 'latin1'), u32(0x200), Buffer.from(`${brand}isomiso2mp41`, 'latin1'));
}

/** A chapter title as a text sample: length, UTF-8, and the encoding box. */
export function chapterSample(title: string): Buffer {
  const text = Buffer.from(title, 'utf8').subarray(0, 1024);
  return Buffer.concat([u16(text.length), text, ENCD]);
}

/** v0 (32-bit) durations unless one does not fit. */
const version = (...v: number[]) => (v.some((x) => x > 0xffffffff) ? 1 : 0);

function hdlr(type: string, name: string): Buffer {
  return fullBox(
    'hdlr',
    0,
    0,
    u32(0),
    Buffer.from(type, 'latin1'),
    Buffer.alloc(12),
    Buffer.from(`${name}\0`, 'latin1'),
  );
}

function tkhd(id: number, flags: number, duration: number, volume: number): Buffer {
  const v = version(duration);
  const t = v ? u64 : u32;
  return fullBox(
    'tkhd',
    v,
    flags,
    t(0),
    t(0),
    u32(id),
    u32(0),
    t(duration),
    Buffer.alloc(8),
    u16(0),
    u16(0),
    u16(volume),
    u16(0),
    MATRIX,
    u32(0),
    u32(0),
  );
}

function mdhd(timescale: number, duration: number): Buffer {
  const v = version(duration);
  const t = v ? u64 : u32;
  return fullBox('mdhd', v, 0, t(0), t(0), u32(timescale), t(duration), u16(0x55c4), u16(0));
}

function elst(duration: number, mediaTime: number): Buffer {
  const v = version(duration, mediaTime);
  const t = v ? u64 : u32;
  return box('edts', fullBox('elst', v, 0, u32(1), t(duration), t(mediaTime), u32(0x10000)));
}

const dinf = () => box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1)));

/** Run-length stts from per-sample durations given as (count, delta) runs. */
function stts(runs: [number, number][]): Buffer {
  const live = runs.filter(([n]) => n > 0);
  return fullBox('stts', 0, 0, u32(live.length), ...live.flatMap(([n, d]) => [u32(n), u32(d)]));
}

function stsc(chunkSamples: number[]): Buffer {
  const rows: Buffer[] = [];
  chunkSamples.forEach((n, i) => {
    if (i === 0 || n !== chunkSamples[i - 1]) rows.push(u32(i + 1), u32(n), u32(1));
  });
  return fullBox('stsc', 0, 0, u32(rows.length / 3), ...rows);
}

function stsz(sizes: ArrayLike<number>): Buffer {
  const body = Buffer.alloc(sizes.length * 4);
  for (let i = 0; i < sizes.length; i++) body.writeUInt32BE(sizes[i], i * 4);
  return fullBox('stsz', 0, 0, u32(0), u32(sizes.length), body);
}

function stco(offsets: number[], wide: boolean): Buffer {
  return wide
    ? fullBox('co64', 0, 0, u32(offsets.length), ...offsets.map(u64))
    : fullBox('stco', 0, 0, u32(offsets.length), ...offsets.map(u32));
}

function audioTrak(l: MoovLayout, movieDuration: number, hasChapters: boolean): Buffer {
  const n = l.sizes.length;
  const media = (n - 1) * FRAME + l.lastDelta;
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, 0, u32(1), l.sampleEntry),
    stts([
      [n - 1, FRAME],
      [1, l.lastDelta],
    ]),
    stsc(l.chunkSamples),
    stsz(l.sizes),
    stco(l.chunkOffsets, l.wide),
  );
  const minf = box('minf', fullBox('smhd', 0, 0, u32(0)), dinf(), stbl);
  return box(
    'trak',
    tkhd(1, 3, movieDuration, 0x100),
    elst(movieDuration, l.priming),
    hasChapters ? box('tref', box('chap', u32(2))) : Buffer.alloc(0),
    box('mdia', mdhd(l.sampleRate, media), hdlr('soun', 'SoundHandler'), minf),
  );
}

function chapterOffsets(l: MoovLayout): number[] {
  let at = l.chapterOffset;
  return l.chapterSizes.map((n) => (at += n) - n);
}

function chapterTrak(l: MoovLayout, movieDuration: number): Buffer {
  const ms = l.chapters.map((c) => Math.round(c.start * 1000));
  const end = Math.round((l.presented / l.sampleRate) * 1000);
  const deltas = ms.map((m, i) => Math.max(1, (i + 1 < ms.length ? ms[i + 1] : end) - m));
  const total = deltas.reduce((a, b) => a + b, 0);
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, 0, u32(1), TEXT_ENTRY),
    stts(deltas.map((d) => [1, d])),
    stsc(l.chapters.map(() => 1)),
    stsz(l.chapterSizes),
    stco(chapterOffsets(l), l.wide),
  );
  return box(
    'trak',
    tkhd(2, 2, movieDuration, 0),
    elst(movieDuration, 0),
    box('mdia', mdhd(1000, total), hdlr('text', 'SubtitleHandler'), box('minf', GMHD, dinf(), stbl)),
  );
}

/** Nero chapters: start in 100 ns units, title of at most 255 bytes; the count is one byte. */
function chpl(chapters: MoovChapter[]): Buffer {
  const rows = chapters.slice(0, 255).map((c) => {
    const t = Buffer.from(c.title, 'utf8').subarray(0, 255);
    return Buffer.concat([u64(c.start * 1e7), u8(t.length), t]);
  });
  return fullBox('chpl', 1, 0, u32(0), u8(rows.length), ...rows);
}

/** iTunes atoms by ffprobe's tag names; a description goes to both desc and the long ldes. */
const ATOMS: Record<string, string> = {
  title: '\xa9nam',
  artist: '\xa9ART',
  album_artist: 'aART',
  album: '\xa9alb',
  composer: '\xa9wrt',
  genre: '\xa9gen',
  date: '\xa9day',
  description: 'desc',
  comment: '\xa9cmt',
};

/** The place in a set, N/M, as iTunes keeps it: two 16-bit numbers in a binary atom. */
function trkn(track: string | undefined): Buffer[] {
  const m = track ? /^(\d+)\/(\d+)$/.exec(track) : null;
  if (!m) return [];
  return [box('trkn', box('data', u32(0), u32(0), u16(0), u16(Number(m[1])), u16(Number(m[2])), u16(0)))];
}

function ilst(tags: Mp4Tags): Buffer {
  const text = (name: string, v?: string) =>
    v?.trim() ? [box(name, box('data', u32(1), u32(0), Buffer.from(v.trim(), 'utf8')))] : [];
  const cover = tags.cover
    ? [box('covr', box('data', u32(tags.cover.mime === 'image/png' ? 14 : 13), u32(0), tags.cover.data))]
    : [];
  const texts = Object.entries(ATOMS).flatMap(([tag, atom]) => text(atom, tags.text?.[tag]));
  return box('ilst', ...texts, ...text('ldes', tags.text?.description), ...trkn(tags.text?.track), ...cover);
}

function udta(l: MoovLayout): Buffer {
  const meta = fullBox(
    'meta',
    0,
    0,
    fullBox('hdlr', 0, 0, u32(0), Buffer.from('mdirappl', 'latin1'), Buffer.alloc(9)),
    ilst(l.tags),
  );
  return box('udta', meta, ...(l.chapters.length > 0 ? [chpl(l.chapters)] : []));
}

export function buildMoov(l: MoovLayout): Buffer {
  const movieDuration = l.presented;
  const hasChapters = l.chapters.length > 0;
  const v = version(movieDuration);
  const t = v ? u64 : u32;
  const mvhd = fullBox(
    'mvhd',
    v,
    0,
    t(0),
    t(0),
    u32(l.sampleRate),
    t(movieDuration),
    u32(0x10000),
    u16(0x100),
    Buffer.alloc(10),
    MATRIX,
    Buffer.alloc(24),
    u32(hasChapters ? 3 : 2),
  );
  return box(
    'moov',
    mvhd,
    audioTrak(l, movieDuration, hasChapters),
    ...(hasChapters ? [chapterTrak(l, movieDuration)] : []),
    udta(l),
  );
}
