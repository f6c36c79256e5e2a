// The details (title, artist, album, ...) and chapters (CHAP frames) of an ID3v2.2/2.3/2.4 tag:
// the probe reports them, the merge keeps an input's chapters and inherits its details.
import { synchsafe, unsynchronise } from './tags.js';

const NAMES: Record<string, string> = {
  TT2: 'title',
  TP1: 'artist',
  TAL: 'album',
  TP2: 'album_artist',
  TCM: 'composer',
  TCO: 'genre',
  TYE: 'date',
  TIT2: 'title',
  TPE1: 'artist',
  TALB: 'album',
  TPE2: 'album_artist',
  TCOM: 'composer',
  TCON: 'genre',
  TYER: 'date',
  TDRC: 'date',
};

/** A chapter an MP3 carries: seconds from the start of its audio, and its title ('' when it has none). */
export interface Id3ChapterRead {
  start: number;
  end: number;
  title: string;
}

function swap16(b: Uint8Array): Buffer {
  const out = Buffer.from(b.subarray(0, b.length & ~1));
  return out.swap16();
}

/** Decode an ID3v2 text frame body: encoding byte, then text; the first of several values. */
export function decodeTextFrame(body: Uint8Array): string {
  if (body.length < 1) return '';
  const enc = body[0];
  let t = body.subarray(1);
  let s: string;
  if (enc === 1 || enc === 2) {
    let le = enc === 1; // UTF-16 with BOM: little-endian unless the BOM says otherwise
    if (t.length >= 2 && ((t[0] === 0xfe && t[1] === 0xff) || (t[0] === 0xff && t[1] === 0xfe))) {
      le = t[0] === 0xff;
      t = t.subarray(2);
    }
    let end = t.length & ~1;
    for (let i = 0; i + 1 < t.length; i += 2)
      if (t[i] === 0 && t[i + 1] === 0) {
        end = i;
        break;
      }
    t = t.subarray(0, end);
    s = le ? Buffer.from(t).toString('utf16le') : swap16(t).toString('utf16le');
  } else {
    const z = t.indexOf(0);
    if (z >= 0) t = t.subarray(0, z);
    s = Buffer.from(t).toString(enc === 3 ? 'utf8' : 'latin1');
  }
  return s.replace(/^\uFEFF/, '').trim();
}

interface Id3Frame {
  id: string;
  data: Uint8Array;
}

/** Each frame of a whole ID3v2 tag (`tag` starts at 'ID3'; may be cut short), flags undone; compressed or encrypted frames skipped. */
function* id3Frames(tag: Uint8Array): Generator<Id3Frame, void, undefined> {
  if (tag.length < 10) return;
  const major = tag[3];
  const flags = tag[5];
  const size = synchsafe(tag, 6);
  if (size < 0 || major < 2 || major > 4) return;
  if (major === 2 && flags & 0x40) return; // v2.2 whole-tag compression
  let body = tag.subarray(10, Math.min(tag.length, 10 + size));
  // v2.2/2.3 unsynchronise the whole tag; v2.4 marks it per frame.
  if (major < 4 && flags & 0x80) body = unsynchronise(body);
  let p = 0;
  if (flags & 0x40) {
    if (major === 3) p = 4 + ((body[0] << 24) | (body[1] << 16) | (body[2] << 8) | body[3]);
    else p = synchsafe(body, 0);
    if (p < 0 || p > body.length) return;
  }
  yield* framesOf(body.subarray(p), major, major === 4 && (flags & 0x80) !== 0);
}

/** The frames in `body` (a tag's, or a CHAP frame's sub-frames). */
function* framesOf(
  body: Uint8Array,
  major: number,
  unsyncAll: boolean,
): Generator<Id3Frame, void, undefined> {
  const idLen = major === 2 ? 3 : 4;
  const headLen = major === 2 ? 6 : 10;
  let p = 0;
  while (p + headLen <= body.length) {
    if (body[p] === 0) break; // padding
    const id = Buffer.from(body.subarray(p, p + idLen)).toString('latin1');
    if (!/^[A-Z0-9]+$/.test(id)) break;
    let len: number;
    if (major === 2) len = (body[p + 3] << 16) | (body[p + 4] << 8) | body[p + 5];
    else if (major === 3)
      len = ((body[p + 4] << 24) | (body[p + 5] << 16) | (body[p + 6] << 8) | body[p + 7]) >>> 0;
    else len = synchsafe(body, p + 4);
    if (len < 0) break;
    const fmt = major === 2 ? 0 : body[p + 9];
    let data = body.subarray(p + headLen, Math.min(body.length, p + headLen + len));
    p += headLen + len;
    if (major === 3 && fmt & 0xc0) continue; // compressed or encrypted
    if (major === 4) {
      if (fmt & 0x0c) continue; // compressed or encrypted
      if (fmt & 0x40) data = data.subarray(1); // group id
      if (fmt & 0x01) data = data.subarray(4); // data length indicator
      if (fmt & 0x02 || unsyncAll) data = unsynchronise(data);
    }
    if (major === 3 && fmt & 0x20) data = data.subarray(1); // group id
    yield { id, data };
  }
}

/** Parse the text frames we report from a whole ID3v2 tag (`tag` starts at 'ID3'; may be cut short). */
export function readId3v2Text(tag: Uint8Array, seen?: Set<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { id, data } of id3Frames(tag)) {
    seen?.add(id);
    const name = NAMES[id];
    if (!name || name in out) continue;
    const text = decodeTextFrame(data);
    if (text) out[name] = text;
  }
  return out;
}

/** The tag's CHAP frames as chapters, by start (a CTOC's order is the same in every tag we met). */
export function readId3v2Chapters(tag: Uint8Array): Id3ChapterRead[] {
  const major = tag.length >= 10 ? tag[3] : 0;
  if (major < 3) return [];
  const out: Id3ChapterRead[] = [];
  for (const { id, data } of id3Frames(tag)) {
    if (id !== 'CHAP') continue;
    const z = data.indexOf(0);
    if (z < 0 || z + 17 > data.length) continue;
    const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    const start = view.readUInt32BE(z + 1);
    const end = view.readUInt32BE(z + 5);
    let title = '';
    for (const sub of framesOf(data.subarray(z + 17), major, false))
      if (sub.id === 'TIT2') title = decodeTextFrame(sub.data);
    out.push({ start: start / 1000, end: end / 1000, title });
  }
  return out.sort((a, b) => a.start - b.start);
}
