// What an MP4's index says besides its packets: the iTunes tags (ilst), whether it carries a cover,
// and its Nero chapters (chpl), read as ffprobe names them, so a book of hundreds of M4A files is
// probed without a process per file. Pure functions over the moov box's bytes.
import { child, childBoxes, type Box } from './boxes.js';

export interface Mp4Meta {
  /** Tags by the names ffprobe gives them (title, artist, album_artist, composer, date, ...). */
  tags: Record<string, string>;
  /** An iTunes cover (covr), which ffmpeg shows as an attached picture. */
  hasCover: boolean;
  /** Nero chapters: start in seconds and title, in the file's order. */
  chapters: Array<{ start: number; title: string }>;
}

/** iTunes item atoms and the names ffmpeg's MP4 reader gives them. */
const ITEM_NAMES: Record<string, string> = {
  '\u00a9nam': 'title',
  '\u00a9ART': 'artist',
  aART: 'album_artist',
  '\u00a9alb': 'album',
  '\u00a9gen': 'genre',
  '\u00a9day': 'date',
  '\u00a9cmt': 'comment',
  desc: 'description',
  ldes: 'synopsis',
  '\u00a9wrt': 'composer',
  '\u00a9too': 'encoder',
  '\u00a9grp': 'grouping',
  '\u00a9lyr': 'lyrics',
  cprt: 'copyright',
  tvsh: 'show',
  tven: 'episode_id',
  tvnn: 'network',
  sonm: 'sort_name',
  soar: 'sort_artist',
  soaa: 'sort_album_artist',
  soal: 'sort_album',
  soco: 'sort_composer',
};

/** Nero chapter starts are in units of 100 ns. */
const CHPL_UNITS = 10_000_000;

/**
 * The index's tags, cover and chapters; undefined where ffprobe would read something this does not
 * (a QuickTime chapter track, which ffmpeg prefers to chpl; old QuickTime text atoms; a genre given
 * as an ID3 number): the caller asks ffprobe then.
 */
export function mp4Meta(moov: Buffer): Mp4Meta | undefined {
  const top: Box = { type: 'moov', start: 8, end: moov.length };
  if (hasChapterTrack(moov, top)) return undefined;
  const udta = child(moov, top, 'udta');
  const found: Mp4Meta = { tags: {}, hasCover: false, chapters: [] };
  if (!udta) return found;
  const parts = childBoxes(moov, udta.start, udta.end);
  // QuickTime's own text atoms (a © type straight under udta) are read by ffmpeg too.
  if (parts.some((b) => b.type.startsWith('\u00a9'))) return undefined;
  const ilst = itemList(
    moov,
    parts.find((b) => b.type === 'meta'),
  );
  if (ilst && !readItems(moov, ilst, found)) return undefined;
  const chpl = parts.find((b) => b.type === 'chpl');
  if (chpl) found.chapters = readChpl(moov, chpl);
  return found;
}

/** A track referenced as chapters by another's tref/chap. */
function hasChapterTrack(moov: Buffer, top: Box): boolean {
  return childBoxes(moov, top.start, top.end)
    .filter((b) => b.type === 'trak')
    .some((trak) => {
      const tref = child(moov, trak, 'tref');
      return tref !== undefined && child(moov, tref, 'chap') !== undefined;
    });
}

/** meta's ilst: meta is a full box in MP4, a plain one in QuickTime files (hdlr comes at once). */
function itemList(moov: Buffer, meta: Box | undefined): Box | undefined {
  if (!meta) return undefined;
  const plain = moov.toString('latin1', meta.start + 4, meta.start + 8) === 'hdlr';
  return childBoxes(moov, meta.start + (plain ? 0 : 4), meta.end).find((b) => b.type === 'ilst');
}

/** Each item's data box: type (flags), locale, then the value. False: an item only ffprobe reads right. */
function readItems(moov: Buffer, ilst: Box, into: Mp4Meta): boolean {
  for (const item of childBoxes(moov, ilst.start, ilst.end)) {
    const data = child(moov, item, 'data');
    if (item.type === 'covr') {
      into.hasCover ||= data !== undefined && data.end > data.start + 8;
      continue;
    }
    if (!data || data.end < data.start + 8) continue;
    if (item.type === 'gnre') return false;
    const value = moov.subarray(data.start + 8, data.end);
    if (item.type === 'trkn' || item.type === 'disk') {
      const pair = numberPair(value);
      if (pair) into.tags[item.type === 'trkn' ? 'track' : 'disc'] = pair;
      continue;
    }
    const name = ITEM_NAMES[item.type];
    const kind = moov.readUInt32BE(data.start) & 0xffffff;
    if (name === undefined || kind !== 1) continue;
    const text = value.toString('utf8');
    if (text !== '') into.tags[name] = text;
  }
  return true;
}

/** trkn/disk: two reserved bytes, the number, the total: "3/10", or "3" without a total. */
function numberPair(value: Buffer): string | undefined {
  if (value.length < 6) return undefined;
  const n = value.readUInt16BE(2);
  const total = value.readUInt16BE(4);
  if (n === 0) return undefined;
  return total > 0 ? `${n}/${total}` : String(n);
}

/** chpl: version, flags, (a reserved word in version 1), a count, then start (u64) and title each. */
function readChpl(moov: Buffer, chpl: Box): Array<{ start: number; title: string }> {
  const version = moov[chpl.start];
  let at = chpl.start + 4 + (version > 0 ? 4 : 0);
  if (at >= chpl.end) return [];
  const count = moov[at++];
  const chapters: Array<{ start: number; title: string }> = [];
  for (let i = 0; i < count && at + 9 <= chpl.end; i++) {
    const start = Number(moov.readBigUInt64BE(at)) / CHPL_UNITS;
    const len = moov[at + 8];
    at += 9;
    if (at + len > chpl.end) break;
    chapters.push({ start, title: moov.toString('utf8', at, at + len) });
    at += len;
  }
  return chapters;
}
