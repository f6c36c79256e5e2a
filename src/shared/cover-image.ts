// Pure: what a cover may be (a JPEG or PNG of at most 10 MB and 4096 x 4096) and the reading of
// an image's kind and size from its bytes, shared by the command line, the engine and the server.

export const COVER_LIMITS = { bytes: 10 * 1024 * 1024, pixels: 4096 } as const;

export type CoverMime = 'image/jpeg' | 'image/png';

export interface CoverInfo {
  mime: CoverMime;
  width: number;
  height: number;
}

/** Why a cover is refused, each a kind a caller can word for a person. */
export type CoverProblem = 'too-large' | 'not-image' | 'too-many-pixels';

export type CoverCheck =
  { ok: true; info: CoverInfo } | { ok: false; problem: CoverProblem; message: string };

function pngSize(b: Buffer): [number, number] | undefined {
  // Signature, then the IHDR chunk: length, "IHDR", width, height.
  if (b.length < 24 || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

/** The frame size in a JPEG's first start-of-frame marker (any SOFn but DHT, JPG and DAC). */
function jpegSize(b: Buffer): [number, number] | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1];
    if (marker === 0xff) {
      i++;
      continue;
    }
    // Markers without a length: TEM, RSTn, SOI.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    const len = b.readUInt16BE(i + 2);
    const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (sof) return [b.readUInt16BE(i + 7), b.readUInt16BE(i + 5)];
    if (marker === 0xda || len < 2) return undefined;
    i += 2 + len;
  }
  return undefined;
}

/** The image's kind and size, or undefined when the bytes are not a JPEG or PNG whose size can be read. */
export function readImageInfo(b: Buffer): CoverInfo | undefined {
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    const size = jpegSize(b);
    return size && { mime: 'image/jpeg', width: size[0], height: size[1] };
  }
  if (b.length > 8 && b.toString('latin1', 0, 8) === '\x89PNG\r\n\x1a\n') {
    const size = pngSize(b);
    return size && { mime: 'image/png', width: size[0], height: size[1] };
  }
  return undefined;
}

/**
 * Check a cover's bytes against the limits. `b` may be a prefix of the file read up to one byte
 * past the limit (a longer file is refused without reading the rest).
 */
export function checkCover(b: Buffer, totalBytes = b.length): CoverCheck {
  const { bytes, pixels } = COVER_LIMITS;
  if (totalBytes > bytes)
    return { ok: false, problem: 'too-large', message: `is larger than ${bytes / 1024 / 1024} MB` };
  const info = readImageInfo(b);
  if (!info || info.width === 0 || info.height === 0)
    return { ok: false, problem: 'not-image', message: 'is not a JPEG or PNG image' };
  if (info.width > pixels || info.height > pixels)
    return {
      ok: false,
      problem: 'too-many-pixels',
      message: `is ${info.width} x ${info.height} pixels, more than ${pixels} x ${pixels}`,
    };
  return { ok: true, info };
}
