// Join AAC packets from several MP4 files into one MP4: the index first (so players start at once),
// then every part's packets unchanged, then the chapter titles. Part starts are counted packets.
import { closeSync, openSync } from 'node:fs';
import { AbortError } from '../errors.js';
import { nextTurn, readFullSync, writeFullSync } from '../io/sync-io.js';
import { buildMoov, chapterSample, ftyp, type MoovChapter, type Mp4Tags } from './moov.js';
import { Mp4Error, type Mp4Audio } from './read.js';

export interface Mp4Part {
  file: string;
  audio: Mp4Audio;
}

export interface Mp4WriteOptions {
  brand: 'M4B ' | 'M4A ';
  chapters: MoovChapter[];
  tags: Mp4Tags;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

const FRAME = 1024;
const CHUNK = 1 << 20;

/**
 * Where each part's audio starts in the presented output, in samples: the packets before it,
 * plus its own priming, less the first part's (which the edit list skips). And the total.
 */
export function mp4PartStarts(audios: Mp4Audio[]): { starts: number[]; total: number } {
  const starts: number[] = [];
  let packets = 0;
  for (const a of audios) {
    starts.push(packets * FRAME + a.priming - audios[0].priming);
    packets += a.sizes.length;
  }
  const last = audios.length - 1;
  return { starts, total: starts[last] + audios[last].audioSamples };
}

/** Whether two parts' packets can share one sample entry. */
export function sameStream(a: Mp4Audio, b: Mp4Audio): boolean {
  return a.objectType === b.objectType && a.sampleRate === b.sampleRate && a.channels === b.channels;
}

function concatSizes(parts: Mp4Part[]): Uint32Array {
  const sizes = new Uint32Array(parts.reduce((n, p) => n + p.audio.sizes.length, 0));
  let at = 0;
  for (const p of parts) {
    sizes.set(p.audio.sizes, at);
    at += p.audio.sizes.length;
  }
  return sizes;
}

function layout(parts: Mp4Part[], opts: Mp4WriteOptions, audioBase: number, wide: boolean) {
  const first = parts[0].audio;
  const last = parts[parts.length - 1].audio;
  const { total } = mp4PartStarts(parts.map((p) => p.audio));
  const chunkOffsets: number[] = [];
  let at = audioBase;
  for (const p of parts) {
    chunkOffsets.push(at);
    for (const s of p.audio.sizes) at += s;
  }
  const samples = opts.chapters.map((c) => chapterSample(c.title));
  const lastDelta = last.priming + last.audioSamples - (last.sizes.length - 1) * FRAME;
  const moov = buildMoov({
    brand: opts.brand,
    sampleRate: first.sampleRate,
    sampleEntry: first.sampleEntry,
    sizes: concatSizes(parts),
    chunkSamples: parts.map((p) => p.audio.sizes.length),
    chunkOffsets,
    lastDelta: Math.max(1, Math.min(FRAME, lastDelta)),
    priming: first.priming,
    presented: total,
    chapters: opts.chapters,
    chapterSizes: samples.map((s) => s.length),
    chapterOffset: at,
    tags: opts.tags,
    wide,
  });
  return { moov, samples, audioEnd: at };
}

/** Copy part `index`'s packets to `out` at `pos`, contiguous runs at a time; returns the new end. */
async function copyPackets(
  { part, index }: { part: Mp4Part; index: number },
  out: number,
  pos: number,
  buf: Buffer,
  signal: AbortSignal | undefined,
  progress: (n: number) => void,
): Promise<number> {
  const { sizes, offsets } = part.audio;
  const fd = openSync(part.file, 'r');
  try {
    let i = 0;
    while (i < sizes.length) {
      if (signal?.aborted) throw new AbortError();
      let len = 0;
      const from = offsets[i];
      while (i < sizes.length && offsets[i] === from + len && len + sizes[i] <= CHUNK) len += sizes[i++];
      if (len === 0) len = sizes[i++]; // a packet larger than the buffer
      const chunk = len <= buf.length ? buf : Buffer.allocUnsafe(len);
      if (readFullSync(fd, chunk, 0, len, from) !== len)
        throw new Mp4Error(part.file, 'ends inside its audio packets', index);
      writeFullSync(out, chunk, 0, len, pos);
      pos += len;
      progress(len);
      await nextTurn();
    }
    return pos;
  } finally {
    closeSync(fd);
  }
}

/** Write the joined MP4 to `outFile` (created or truncated); the caller removes it on failure. */
export async function writeMp4(
  parts: Mp4Part[],
  outFile: string,
  opts: Mp4WriteOptions,
): Promise<{ bytes: number; samples: number }> {
  const head = ftyp(opts.brand);
  const payload = parts.reduce((n, p) => n + p.audio.sizes.reduce((a, b) => a + b, 0), 0);
  const probe = layout(parts, opts, 0, false);
  const estimate =
    head.length + probe.moov.length * 2 + 16 + payload + probe.samples.reduce((n, s) => n + s.length, 0);
  const wide = estimate > 0xffffffff;
  const sized = layout(parts, opts, 0, wide);
  const mdatHead = wide ? 16 : 8;
  const base = head.length + sized.moov.length + mdatHead;
  const { moov, samples, audioEnd } = layout(parts, opts, base, wide);
  const end = audioEnd + samples.reduce((n, s) => n + s.length, 0);
  const mdat = Buffer.alloc(mdatHead);
  if (wide) {
    mdat.writeUInt32BE(1, 0);
    mdat.write('mdat', 4, 'latin1');
    mdat.writeBigUInt64BE(BigInt(end - base + 16), 8);
  } else {
    mdat.writeUInt32BE(end - base + 8, 0);
    mdat.write('mdat', 4, 'latin1');
  }
  const out = openSync(outFile, 'w');
  try {
    const top = Buffer.concat([head, moov, mdat]);
    writeFullSync(out, top, 0, top.length, 0);
    let pos = top.length;
    let done = 0;
    const buf = Buffer.allocUnsafe(CHUNK);
    for (const [index, part] of parts.entries()) {
      pos = await copyPackets({ part, index }, out, pos, buf, opts.signal, (n) =>
        opts.onProgress?.((done += n), payload),
      );
    }
    const text = Buffer.concat(samples);
    writeFullSync(out, text, 0, text.length, pos);
    return { bytes: pos + text.length, samples: mp4PartStarts(parts.map((p) => p.audio)).total };
  } finally {
    closeSync(out);
  }
}
