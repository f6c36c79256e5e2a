// Pure: the sample count a FLAC file states in its STREAMINFO block, which the encoder writes
// after the last frame, so it is the exact length of the stream (0 when the encoder did not know).

/** "fLaC", a metadata block header, and the 34 bytes of STREAMINFO (always the first block). */
export const FLAC_HEAD_BYTES = 42;

/**
 * The total samples (per channel) of a FLAC stream from its first bytes, when the file starts
 * with STREAMINFO at `sampleRate` and states a total; undefined otherwise (a tag before "fLaC",
 * an unknown total, another rate).
 */
export function flacTotalSamples(head: Buffer, sampleRate: number): number | undefined {
  if (head.length < FLAC_HEAD_BYTES || head.toString('latin1', 0, 4) !== 'fLaC') return undefined;
  if ((head[4] & 0x7f) !== 0 || head.readUIntBE(5, 3) < 34) return undefined; // not STREAMINFO
  const info = head.subarray(8);
  const rate = (info[10] << 12) | (info[11] << 4) | (info[12] >> 4);
  if (rate !== sampleRate) return undefined;
  const total = (info[13] & 0x0f) * 2 ** 32 + info.readUInt32BE(14);
  return total > 0 ? total : undefined;
}

/** A metadata block of a FLAC file: its type and length, and its body (of a PICTURE, the head). */
export interface FlacBlock {
  type: number;
  length: number;
  body: Buffer;
}

/** What a probe needs of a FLAC file, read from its metadata blocks as ffmpeg reads them. */
export interface FlacHead {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Samples per channel, as STREAMINFO states (never 0 here). */
  samples: number;
  /** The Vorbis comments, keyed as ffmpeg keys them. */
  tags: Record<string, string>;
  /** A JPEG or PNG picture block, which ffmpeg shows as an attached picture. */
  hasPicture: boolean;
}

export const FLAC_BLOCK = { streaminfo: 0, vorbisComment: 4, picture: 6 } as const;

/** ffmpeg's renames of Vorbis comment keys (libavformat's vorbiscomment metadata table). */
const KEY_RENAMES: Record<string, string> = {
  ALBUMARTIST: 'album_artist',
  TRACKNUMBER: 'track',
  DISCNUMBER: 'disc',
  DESCRIPTION: 'comment',
};

/**
 * The stream's shape, length, tags and cover from its metadata blocks; undefined for anything
 * whose reading by ffmpeg depends on more than these rules (no stated total, a key twice,
 * chapters or pictures in comments, a picture of another type, malformed blocks): ffprobe reads
 * those.
 */
export function flacHead(blocks: FlacBlock[]): FlacHead | undefined {
  const [info, ...rest] = blocks;
  if (info?.type !== FLAC_BLOCK.streaminfo || info.body.length !== 34) return undefined;
  const b = info.body;
  const sampleRate = (b[10] << 12) | (b[11] << 4) | (b[12] >> 4);
  const channels = ((b[12] >> 1) & 0x07) + 1;
  const bitsPerSample = (((b[12] & 0x01) << 4) | (b[13] >> 4)) + 1;
  const samples = (b[13] & 0x0f) * 2 ** 32 + b.readUInt32BE(14);
  if (sampleRate === 0 || samples === 0) return undefined;
  const comments = rest.filter((k) => k.type === FLAC_BLOCK.vorbisComment);
  if (comments.length > 1) return undefined;
  const tags = comments.length ? vorbisTags(comments[0].body) : {};
  const pictures = rest.filter((k) => k.type === FLAC_BLOCK.picture).map(pictureIsImage);
  if (!tags || pictures.includes(undefined)) return undefined;
  return { sampleRate, channels, bitsPerSample, samples, tags, hasPicture: pictures.length > 0 };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The comments of a VORBIS_COMMENT block (little-endian lengths), keyed as ffmpeg keys them. */
export function vorbisTags(body: Buffer): Record<string, string> | undefined {
  const entries: string[] = [];
  try {
    let at = 4 + body.readUInt32LE(0); // the vendor string, which ffmpeg does not keep
    const count = body.readUInt32LE(at);
    at += 4;
    for (let n = 0; n < count; n++) {
      const len = body.readUInt32LE(at);
      if (at + 4 + len > body.length) return undefined;
      entries.push(utf8.decode(body.subarray(at + 4, at + 4 + len)));
      at += 4 + len;
    }
  } catch {
    return undefined; // a length past the block, or bytes that are not UTF-8
  }
  const tags: Record<string, string> = {};
  const seen = new Set<string>();
  for (const entry of entries) {
    const eq = entry.indexOf('=');
    const [key, value] = eq < 0 ? ['', ''] : [entry.slice(0, eq), entry.slice(eq + 1)];
    if (!key || !value) continue; // ffmpeg skips a comment without both
    const upper = key.toUpperCase();
    if (entry.includes('\0') || upper.startsWith('CHAPTER') || upper === 'METADATA_BLOCK_PICTURE')
      return undefined;
    const named = KEY_RENAMES[upper] ?? key;
    if (seen.has(named.toUpperCase())) return undefined; // ffmpeg joins or overwrites by its own order
    seen.add(named.toUpperCase());
    tags[named] = value;
  }
  return tags;
}

const IMAGE_TYPES = new Set(['image/jpeg', 'image/jpg', 'image/png']);

/** True for a whole PICTURE block of a JPEG or PNG; undefined for any other. */
function pictureIsImage(block: FlacBlock): true | undefined {
  const b = block.body;
  if (b.length < 8) return undefined;
  const mimeEnd = 8 + b.readUInt32BE(4);
  if (mimeEnd + 4 > b.length) return undefined;
  const mime = b.toString('latin1', 8, mimeEnd).toLowerCase();
  const descEnd = mimeEnd + 4 + b.readUInt32BE(mimeEnd);
  if (!IMAGE_TYPES.has(mime) || descEnd + 20 > b.length) return undefined;
  const dataLength = b.readUInt32BE(descEnd + 16);
  return descEnd + 20 + dataLength === block.length && dataLength > 0 ? true : undefined;
}
