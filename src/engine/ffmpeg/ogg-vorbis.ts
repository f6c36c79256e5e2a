// An Ogg Vorbis file's exact length and how to decode exactly it. The Vorbis I spec makes the last
// page's granule position the count of samples the stream plays (oggdec plays that many). ffmpeg
// does not honour it: 5.1's Ogg demuxer trims the last packet by the wrong amount (a 1.25 s oggenc
// file decodes 128 samples short, its fade-out cut into a click at the next join), 2018's does not
// trim at all (the encoder's padding plays), and both stamp the frames of some files a block late,
// so a cut by time (-t) misses the end either way. So every decode of such a file reads all the
// decoded samples (`-flags2 +skip_manual` turns 5.1's trimming off), restamps them by count and
// cuts them at the granule's count.
import { closeSync, openSync, readSync, statSync } from 'node:fs';

const PAGE_HEADER = 27;
/** A page holds at most 255 segments of 255 bytes after its header and segment table. */
const MAX_PAGE = PAGE_HEADER + 255 + 255 * 255;

interface Page {
  granule: bigint;
  serial: number;
}

/** The page header at `at` of `buf`, when one is there whole (capture pattern, version 0, its body). */
function pageAt(buf: Buffer, at: number): Page | undefined {
  if (at + PAGE_HEADER > buf.length || buf.toString('latin1', at, at + 4) !== 'OggS' || buf[at + 4] !== 0)
    return undefined;
  const segments = buf[at + 26];
  if (at + PAGE_HEADER + segments > buf.length) return undefined;
  let body = 0;
  for (let s = 0; s < segments; s++) body += buf[at + PAGE_HEADER + s];
  if (at + PAGE_HEADER + segments + body > buf.length) return undefined;
  return { granule: buf.readBigInt64LE(at + 6), serial: buf.readUInt32LE(at + 14) };
}

function readAt(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  const got = readSync(fd, buf, 0, length, position);
  return buf.subarray(0, got);
}

/** The first page's stream, when it begins a Vorbis stream (its identification header). */
function vorbisSerial(first: Buffer): number | undefined {
  const page = pageAt(first, 0);
  if (!page || (first[5] & 0x02) === 0) return undefined;
  const packet = PAGE_HEADER + first[26];
  return first.toString('latin1', packet, packet + 7) === '\x01vorbis' ? page.serial : undefined;
}

/** The granule position of the file's last page, if that page belongs to stream `serial`. */
function lastGranule(tail: Buffer, serial: number): bigint | undefined {
  for (let at = tail.lastIndexOf('OggS', tail.length - PAGE_HEADER, 'latin1'); at >= 0;) {
    const page = pageAt(tail, at);
    // Another stream's page last (a chained or multiplexed file): not one stream, leave it to ffmpeg.
    if (page && page.serial !== serial) return undefined;
    if (page && page.granule >= 0n) return page.granule;
    at = at > 0 ? tail.lastIndexOf('OggS', at - 1, 'latin1') : -1;
  }
  return undefined;
}

const cache = new Map<string, { key: string; samples: number | undefined }>();

function readSamples(file: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const serial = vorbisSerial(readAt(fd, 0, 512));
    if (serial === undefined) return undefined;
    const size = statSync(file).size;
    const from = Math.max(0, size - 2 * MAX_PAGE);
    const granule = lastGranule(readAt(fd, from, size - from), serial);
    return granule !== undefined && granule > 0n && granule <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(granule)
      : undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The samples an Ogg file of one Vorbis stream plays (its last page's granule position), or
 * undefined for anything else (another format, several streams, no granule). Read once per file
 * version: every decode of the file asks.
 */
export function oggVorbisSamples(file: string): number | undefined {
  let key: string;
  try {
    const st = statSync(file);
    key = `${st.size}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
  const known = cache.get(file);
  if (known?.key === key) return known.samples;
  const samples = readSamples(file);
  cache.set(file, { key, samples });
  return samples;
}

/** What a decode of `file` needs to give exactly its samples: input options and a first filter. */
export interface ExactDecode {
  /** Before its `-i`. */
  input: string[];
  /** The first filter of its chain (before any resampling). */
  filter?: string;
}

export function exactDecode(file: string): ExactDecode {
  const samples = oggVorbisSamples(file);
  if (samples === undefined) return { input: [] };
  return { input: ['-flags2', '+skip_manual'], filter: `asetpts=N/SR/TB,atrim=end_sample=${samples}` };
}

/** `filters` (an -af chain, maybe none) with the exact decode's filter first. */
export function withExactFilter(decode: ExactDecode, filters: string | undefined): string | undefined {
  if (!decode.filter) return filters;
  return filters ? `${decode.filter},${filters}` : decode.filter;
}
