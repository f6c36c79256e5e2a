// Pure: what a FLAC file's metadata blocks say: the stream's shape, its stated length (which the
// frames, not this, settle: flac-frames.ts), its Vorbis comments and pictures as ffmpeg reads them.

/** A metadata block of a FLAC file: its type and length, and its body (of a PICTURE, the head). */
export interface FlacBlock {
  type: number;
  length: number;
  body: Buffer;
}

/** What STREAMINFO says of the stream. */
export interface StreamInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Samples per channel, as STREAMINFO states (0: unknown); the frames may say otherwise. */
  stated: number;
  minBlockSize: number;
  maxBlockSize: number;
  /** The largest frame in bytes, as stated (0: unknown). */
  maxFrameSize: number;
}

/** What a probe needs of a FLAC file, read from its metadata blocks as ffmpeg reads them. */
export interface FlacHead extends StreamInfo {
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
 * The stream's shape, stated length, tags and cover from its metadata blocks; undefined for anything
 * whose reading by ffmpeg depends on more than these rules (a key twice,
 * chapters or pictures in comments, a picture of another type, malformed blocks): ffprobe reads
 * those.
 */
export function flacHead(blocks: FlacBlock[]): FlacHead | undefined {
  const [info, ...rest] = blocks;
  const stream = info?.type === FLAC_BLOCK.streaminfo ? streamInfo(info.body) : undefined;
  if (!stream) return undefined;
  const comments = rest.filter((k) => k.type === FLAC_BLOCK.vorbisComment);
  if (comments.length > 1) return undefined;
  const tags = comments.length ? vorbisTags(comments[0].body) : {};
  const pictures = rest.filter((k) => k.type === FLAC_BLOCK.picture).map(pictureIsImage);
  if (!tags || pictures.includes(undefined)) return undefined;
  return { ...stream, tags, hasPicture: pictures.length > 0 };
}

/** The body of a STREAMINFO block read; undefined when it is malformed. */
export function streamInfo(b: Buffer): StreamInfo | undefined {
  if (b.length !== 34) return undefined;
  const sampleRate = (b[10] << 12) | (b[11] << 4) | (b[12] >> 4);
  const channels = ((b[12] >> 1) & 0x07) + 1;
  const bitsPerSample = (((b[12] & 0x01) << 4) | (b[13] >> 4)) + 1;
  const stated = (b[13] & 0x0f) * 2 ** 32 + b.readUInt32BE(14);
  const [minBlockSize, maxBlockSize, maxFrameSize] = [
    b.readUInt16BE(0),
    b.readUInt16BE(2),
    b.readUIntBE(7, 3),
  ];
  if (sampleRate === 0 || maxBlockSize < 16 || minBlockSize > maxBlockSize) return undefined;
  return { sampleRate, channels, bitsPerSample, stated, minBlockSize, maxBlockSize, maxFrameSize };
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
