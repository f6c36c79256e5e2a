// Where the audio of an MP3 file lies between its tags: ID3v2 and APEv2 at the head; APEv2,
// Lyrics3 v1/v2, an appended ID3v2.4 and ID3v1 at the tail. Pure functions over byte buffers.

const ascii = (b: Uint8Array, off: number, s: string): boolean => {
  if (off < 0 || off + s.length > b.length) return false;
  for (let i = 0; i < s.length; i++) if (b[off + i] !== s.charCodeAt(i)) return false;
  return true;
};

const u32le = (b: Uint8Array, o: number): number =>
  (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;

/** 28-bit "synchsafe" integer (7 bits per byte); -1 when a byte has its top bit set. */
export function synchsafe(b: Uint8Array, o: number): number {
  if ((b[o] | b[o + 1] | b[o + 2] | b[o + 3]) & 0x80) return -1;
  return (b[o] << 21) | (b[o + 1] << 14) | (b[o + 2] << 7) | b[o + 3];
}

/** Size of an ID3v2 tag header+body(+footer) starting at `off`, or 0 when there is none. */
export function id3v2Size(b: Uint8Array, off: number): number {
  if (!ascii(b, off, 'ID3') || off + 10 > b.length) return 0;
  const major = b[off + 3];
  if (major < 2 || major > 4 || b[off + 4] === 0xff) return 0;
  const size = synchsafe(b, off + 6);
  if (size < 0) return 0;
  const footer = major === 4 && (b[off + 5] & 0x10) !== 0 ? 10 : 0;
  return 10 + size + footer;
}

/** Size of an APEv2 tag starting with its header at `off`, or 0. */
export function apeHeadSize(b: Uint8Array, off: number): number {
  if (!ascii(b, off, 'APETAGEX') || off + 32 > b.length) return 0;
  const flags = u32le(b, off + 20);
  if (!(flags & 0x20000000)) return 0; // a footer, not a header
  return 32 + u32le(b, off + 12);
}

/** Size of the tag that starts at `off` (ID3v2 or APEv2 header), or 0. Needs 32 bytes at `off`. */
export function headTagSize(b: Uint8Array, off: number): number {
  return id3v2Size(b, off) || apeHeadSize(b, off);
}

/** How many bytes before the end of `tail` the tail tag search needs (Lyrics3 v1 is up to 5100 + 20). */
export const TAIL_WINDOW = 8192;

export type TailTag = 'ape' | 'lyrics3v2' | 'lyrics3v1' | 'id3v2' | 'id3v1';

/**
 * The one tag that ends exactly at the end of `tail` (the bytes just before the current end of
 * the audio region), or null. Strip it and call again: tags stack (APEv2, Lyrics3, ID3v1).
 * `room` is how many bytes lie before `tail` in the file, so sizes can be checked.
 */
export function tailTag(tail: Uint8Array, room = 0): { kind: TailTag; size: number } | null {
  const n = tail.length;
  const fits = (size: number) => size > 0 && size <= n + room;
  if (ascii(tail, n - 32, 'APETAGEX')) {
    const size = u32le(tail, n - 32 + 12);
    const hasHeader = (u32le(tail, n - 32 + 20) & 0x80000000) !== 0;
    const total = size + (hasHeader ? 32 : 0);
    if (size >= 32 && fits(total)) return { kind: 'ape', size: total };
  }
  if (ascii(tail, n - 9, 'LYRICS200')) {
    const digits = Buffer.from(tail.subarray(n - 15, n - 9)).toString('latin1');
    if (/^\d{6}$/.test(digits)) {
      const total = Number(digits) + 15;
      if (fits(total) && (n - total < 0 || ascii(tail, n - total, 'LYRICSBEGIN')))
        return { kind: 'lyrics3v2', size: total };
    }
  }
  if (ascii(tail, n - 9, 'LYRICSEND')) {
    for (let at = n - 9 - 11; at >= Math.max(0, n - 9 - 5100 - 11); at--) {
      if (ascii(tail, at, 'LYRICSBEGIN')) return { kind: 'lyrics3v1', size: n - at };
    }
  }
  if (ascii(tail, n - 10, '3DI') && tail[n - 7] === 4) {
    const size = synchsafe(tail, n - 4);
    if (size >= 0 && fits(size + 20)) return { kind: 'id3v2', size: size + 20 };
  }
  if (ascii(tail, n - 128, 'TAG')) return { kind: 'id3v1', size: 128 };
  return null;
}

/** Undo ID3v2 unsynchronisation: drop each 0x00 that follows 0xFF. */
export function unsynchronise(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(b.length);
  let n = 0;
  for (let i = 0; i < b.length; i++) {
    out[n++] = b[i];
    if (b[i] === 0xff && b[i + 1] === 0x00) i++;
  }
  return out.subarray(0, n);
}

/** Read ID3v1 title/artist/album from a 128-byte 'TAG' block. */
export function readId3v1(b: Uint8Array): Record<string, string> {
  if (b.length < 128 || !ascii(b, 0, 'TAG')) return {};
  const field = (o: number, n: number) =>
    Buffer.from(b.subarray(o, o + n))
      .toString('latin1')
      .replace(/\0.*$/s, '')
      .trim();
  const out: Record<string, string> = {};
  const title = field(3, 30);
  const artist = field(33, 30);
  const album = field(63, 30);
  if (title) out.title = title;
  if (artist) out.artist = artist;
  if (album) out.album = album;
  return out;
}
