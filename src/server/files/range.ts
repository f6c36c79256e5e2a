// HTTP Range (RFC 9110 section 14) for one byte range; pure arithmetic, tested on its own.

export type RangeAnswer =
  /** Serve the whole file with 200 (no Range, or one we choose to ignore). */
  | { kind: 'full' }
  /** 206 with these inclusive byte offsets. */
  | { kind: 'partial'; start: number; end: number }
  /** 416: no byte of the file matches. */
  | { kind: 'unsatisfiable' };

/**
 * Read a Range header against a file of `size` bytes. Malformed headers and multi-range
 * requests are ignored (the whole file is a valid answer to them); ranges past the end are 416.
 */
export function parseRange(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined) return { kind: 'full' };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return { kind: 'full' };
  const [, first, last] = m;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    // Suffix range: the last N bytes.
    const n = Number(last);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return { kind: 'full' };
  return { kind: 'partial', start, end };
}

const CONTENT_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg; codecs=opus',
  m4a: 'audio/mp4',
  m4b: 'audio/mp4',
  mp4: 'audio/mp4',
  aac: 'audio/aac',
  webm: 'audio/webm',
  mka: 'audio/x-matroska',
  aiff: 'audio/aiff',
  wma: 'audio/x-ms-wma',
  ac3: 'audio/ac3',
};

export function contentTypeFor(format: string): string {
  return CONTENT_TYPES[format] ?? 'application/octet-stream';
}
