// The output's ID3v2.3 tag: version 2.3 because every player reads it (2.4 support is patchy).
// Text frames (the year as TYER, a description as a TXXX "description", the comment as COMM), a
// front cover (APIC), and chapters as podcast players read them: one top-level,
// ordered CTOC listing CHAP frames, each with its title as a TIT2 sub-frame.

export interface Id3Text {
  title?: string;
  artist?: string;
  albumArtist?: string;
  album?: string;
  composer?: string;
  genre?: string;
  year?: string;
  description?: string;
  comment?: string;
  /** N/M: the place in a set (a book in parts). */
  track?: string;
}

export interface Id3Chapter {
  title: string;
  startMs: number;
  endMs: number;
}

export interface Id3Picture {
  mime: 'image/jpeg' | 'image/png';
  data: Buffer;
}

export interface Id3Content extends Id3Text {
  chapters?: Id3Chapter[];
  cover?: Id3Picture;
}

/** A CTOC counts its children in one byte. */
export const MAX_ID3_CHAPTERS = 255;

const IDS: [keyof Id3Text, string][] = [
  ['title', 'TIT2'],
  ['artist', 'TPE1'],
  ['albumArtist', 'TPE2'],
  ['album', 'TALB'],
  ['composer', 'TCOM'],
  ['genre', 'TCON'],
  ['year', 'TYER'],
  ['track', 'TRCK'],
];

/** Text frame body: ISO-8859-1 when every character fits, else UTF-16 with a byte-order mark. */
export function encodeText(text: string): Buffer {
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u00ff]*$/.test(text)) return Buffer.concat([Buffer.from([0]), Buffer.from(text, 'latin1')]);
  return Buffer.concat([Buffer.from([1, 0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

function synchsafe(n: number): Buffer {
  return Buffer.from([(n >>> 21) & 0x7f, (n >>> 14) & 0x7f, (n >>> 7) & 0x7f, n & 0x7f]);
}

function frame(id: string, body: Buffer): Buffer {
  const head = Buffer.alloc(10);
  head.write(id, 0, 'latin1');
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
}

const clean = (t: string | undefined) => t?.replace(/\0/g, '').trim() ?? '';
const zString = (s: string) => Buffer.from(`${s}\0`, 'latin1');

/** A described text (TXXX, COMM): one encoding for the description and the text, each ended by a terminator. */
function described(description: string, text: string): Buffer {
  // eslint-disable-next-line no-control-regex
  const latin = (s: string) => /^[\u0000-\u00ff]*$/.test(s);
  if (latin(description) && latin(text))
    return Buffer.concat([Buffer.from([0]), zString(description), Buffer.from(text, 'latin1')]);
  const bom = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
  return Buffer.concat([Buffer.from([1]), bom(description), Buffer.from([0, 0]), bom(text)]);
}

function textFrames(tags: Id3Text): Buffer[] {
  const plain = IDS.flatMap(([key, id]) =>
    clean(tags[key]) ? [frame(id, encodeText(clean(tags[key])))] : [],
  );
  // Descriptions and comments keep their inner lines; only NULs would cut them short.
  const long = (t: string | undefined) => t?.replace(/\0/g, '').trim() ?? '';
  const description = long(tags.description);
  const comment = long(tags.comment);
  if (description) plain.push(frame('TXXX', described('description', description)));
  if (comment) {
    const body = described('', comment);
    // COMM: encoding, language, then the (empty) description and the text.
    plain.push(
      frame('COMM', Buffer.concat([body.subarray(0, 1), Buffer.from('eng', 'latin1'), body.subarray(1)])),
    );
  }
  return plain;
}

function chapterFrames(chapters: Id3Chapter[]): Buffer[] {
  if (chapters.length === 0) return [];
  if (chapters.length > MAX_ID3_CHAPTERS) throw new Error(`at most ${MAX_ID3_CHAPTERS} ID3 chapters`);
  const ids = chapters.map((_, i) => `ch${i}`);
  // Top-level (2) and ordered (1); byte offsets "unknown" (all ones) so players go by time.
  const toc = Buffer.concat([zString('toc'), Buffer.from([0x03, chapters.length]), ...ids.map(zString)]);
  const chaps = chapters.map((c, i) => {
    const times = Buffer.alloc(16, 0xff);
    times.writeUInt32BE(Math.max(0, Math.round(c.startMs)), 0);
    times.writeUInt32BE(Math.max(0, Math.round(c.endMs)), 4);
    const title = clean(c.title) ? frame('TIT2', encodeText(clean(c.title))) : Buffer.alloc(0);
    return frame('CHAP', Buffer.concat([zString(ids[i]), times, title]));
  });
  return [frame('CTOC', toc), ...chaps];
}

function pictureFrame(cover: Id3Picture | undefined): Buffer[] {
  if (!cover) return [];
  // Latin-1 description (empty), picture type 3: front cover.
  return [
    frame('APIC', Buffer.concat([Buffer.from([0]), zString(cover.mime), Buffer.from([3, 0]), cover.data])),
  ];
}

/** An ID3v2.3 tag holding the given texts, chapters and cover; an empty buffer when there is nothing to say. */
export function buildId3v23(tags: Id3Content): Buffer {
  const frames = [...textFrames(tags), ...chapterFrames(tags.chapters ?? []), ...pictureFrame(tags.cover)];
  if (frames.length === 0) return Buffer.alloc(0);
  const body = Buffer.concat(frames);
  if (body.length >= 1 << 28) throw new Error('ID3 tag too large');
  return Buffer.concat([Buffer.from('ID3\x03\x00\x00', 'latin1'), synchsafe(body.length), body]);
}
