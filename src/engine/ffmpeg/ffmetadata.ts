// Pure: ffmpeg's FFMETADATA1 text, which carries tags (and, for Ogg and FLAC, our own CHAPTERnnn
// comments and a cover) into the final encode without the command line's length limits.

/** Escape as ffmetadata requires: '=', ';', '#', '\' and newlines take a backslash. */
export function escapeMeta(text: string): string {
  return text.replace(/[=;#\\\n]/g, (c) => `\\${c}`);
}

/**
 * One `key=value` line. ffmpeg 5's line reader looks only at the character before a line end, so
 * an escaped backslash at the end of a value (`\\` then a newline) reads as a continuation and
 * swallows the next line. A NUL after it ends the line in every ffmpeg's reader (5's keeps reading
 * to the newline but the value stops at the NUL; older ones stop at the NUL and skip the empty
 * line after it), and no value can hold a NUL.
 */
function metaLine(key: string, value: string): string {
  const line = `${escapeMeta(key)}=${escapeMeta(value)}`;
  return value.endsWith('\\') ? `${line}\0` : line;
}

export function ffmetadata(pairs: [string, string][]): string {
  const lines = pairs.filter(([, v]) => v !== '').map(([k, v]) => metaLine(k, v));
  return `;FFMETADATA1\n${lines.join('\n')}\n`;
}

/** A FLAC picture block (front cover), base64, as Ogg Vorbis and Opus carry it in METADATA_BLOCK_PICTURE. */
export function pictureBlock(mime: string, data: Buffer): string {
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const m = Buffer.from(mime, 'latin1');
  // type 3 (front cover), MIME, empty description, size and colour fields left 0 (unknown).
  return Buffer.concat([
    u32(3),
    u32(m.length),
    m,
    u32(0),
    u32(0),
    u32(0),
    u32(0),
    u32(0),
    u32(data.length),
    data,
  ]).toString('base64');
}
