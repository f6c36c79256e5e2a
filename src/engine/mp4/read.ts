// Read the AAC track of an MP4/M4A file: its sample entry, where each packet lies, and the
// encoder priming its edit list skips. Enough to copy the packets into another MP4 unchanged.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { EngineError } from '../errors.js';
import { readFullSync } from '../io/sync-io.js';
import { child, childBoxes, path, type Box } from './boxes.js';

export interface Mp4Audio {
  /** The track's sample entry (the whole mp4a box), copied into the output's stsd. */
  sampleEntry: Buffer;
  objectType: number;
  sampleRate: number;
  channels: number;
  /** Packets and where they lie in the file. */
  sizes: Uint32Array;
  offsets: Float64Array;
  /** Samples the encoder put ahead of the audio (the edit list's media time). */
  priming: number;
  /** Samples of audio after the priming (the edit list's duration, else the packets' total). */
  audioSamples: number;
}

/**
 * An MP4 this engine cannot copy packets from: the file, why (in the command line's words), and,
 * when it is one of several parts being written, its `index` among them (-1 otherwise).
 */
export class Mp4Error extends EngineError {
  override name = 'Mp4Error';
  readonly code = 'bad-mp4';
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly index = -1,
  ) {
    super(`${file}: ${reason}`);
  }
}

/** Why the index being read cannot be used; readMp4Audio adds the file and throws an Mp4Error. */
class Unusable extends Error {}

const FRAME = 1024;
const MAX_MOOV = 256 << 20;

function readMoov(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(16);
    for (let at = 0; at + 8 <= size;) {
      readFullSync(fd, head, 0, 16, at);
      let len = head.readUInt32BE(0);
      let hdr = 8;
      if (len === 1) [len, hdr] = [Number(head.readBigUInt64BE(8)), 16];
      else if (len === 0) len = size - at;
      if (len < hdr) break;
      if (head.toString('latin1', 4, 8) === 'moov') {
        if (len > MAX_MOOV) throw new Unusable('its index (moov) is too large');
        const moov = Buffer.alloc(len);
        readFullSync(fd, moov, 0, len, at);
        return moov;
      }
      at += len;
    }
    throw new Unusable('no MP4 index (moov)');
  } finally {
    closeSync(fd);
  }
}

function soundTrack(moov: Buffer): Box {
  const top = { type: 'moov', start: 8, end: moov.length };
  for (const trak of childBoxes(moov, top.start, top.end).filter((b) => b.type === 'trak')) {
    const hdlr = path(moov, trak, 'mdia', 'hdlr');
    if (hdlr && moov.toString('latin1', hdlr.start + 8, hdlr.start + 12) === 'soun') return trak;
  }
  throw new Unusable('no audio track');
}

/** Descriptor length: 1 to 4 bytes, 7 bits each. */
function descriptor(b: Buffer, at: number): { tag: number; body: number; end: number } {
  const tag = b[at++];
  let len = 0;
  for (let i = 0; i < 4; i++) {
    const c = b[at++];
    len = (len << 7) | (c & 0x7f);
    if (!(c & 0x80)) break;
  }
  return { tag, body: at, end: at + len };
}

/** AudioSpecificConfig from an esds box: object type, rate and channels. */
function audioConfig(
  b: Buffer,
  esds: Box,
): { objectType: number; sampleRate: number; channels: number; frame: number } {
  const es = descriptor(b, esds.start + 4);
  if (es.tag !== 3) throw new Unusable('unreadable AAC configuration');
  const flags = b[es.body + 2];
  let at =
    es.body + 3 + (flags & 0x80 ? 2 : 0) + (flags & 0x20 ? 2 : 0) + (flags & 0x40 ? 1 + b[es.body + 3] : 0);
  const dc = descriptor(b, at);
  if (dc.tag !== 4) throw new Unusable('unreadable AAC configuration');
  at = dc.body + 13;
  const ds = descriptor(b, at);
  if (ds.tag !== 5) throw new Unusable('unreadable AAC configuration');
  const bits = b.readUInt32BE(ds.body) >>> 0;
  const objectType = bits >>> 27;
  const index = (bits >>> 23) & 15;
  const rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];
  if (objectType === 31 || index >= rates.length) return { objectType, sampleRate: 0, channels: 0, frame: 0 };
  const channels = (bits >>> 19) & 15;
  return { objectType, sampleRate: rates[index], channels, frame: (bits >>> 18) & 1 ? 960 : FRAME };
}

function sampleSizes(b: Buffer, stsz: Box): Uint32Array {
  const fixed = b.readUInt32BE(stsz.start + 4);
  const count = b.readUInt32BE(stsz.start + 8);
  const sizes = new Uint32Array(count);
  for (let i = 0; i < count; i++) sizes[i] = fixed || b.readUInt32BE(stsz.start + 12 + 4 * i);
  return sizes;
}

function sampleOffsets(b: Buffer, stbl: Box, sizes: Uint32Array): Float64Array {
  const stsc = child(b, stbl, 'stsc');
  const co = child(b, stbl, 'stco') ?? child(b, stbl, 'co64');
  if (!stsc || !co) throw new Unusable('no packet index');
  const wide = b.toString('latin1', co.start - 4, co.start) === 'co64';
  const chunks = b.readUInt32BE(co.start + 4);
  const chunkAt = (c: number) =>
    wide ? Number(b.readBigUInt64BE(co.start + 8 + 8 * c)) : b.readUInt32BE(co.start + 8 + 4 * c);
  const entries = b.readUInt32BE(stsc.start + 4);
  const offsets = new Float64Array(sizes.length);
  let s = 0;
  for (let e = 0; e < entries; e++) {
    const first = b.readUInt32BE(stsc.start + 8 + 12 * e) - 1;
    const per = b.readUInt32BE(stsc.start + 12 + 12 * e);
    const last = e + 1 < entries ? b.readUInt32BE(stsc.start + 8 + 12 * (e + 1)) - 1 : chunks;
    for (let c = first; c < last && s < sizes.length; c++) {
      let at = chunkAt(c);
      for (let k = 0; k < per && s < sizes.length; k++, s++) {
        offsets[s] = at;
        at += sizes[s];
      }
    }
  }
  if (s !== sizes.length) throw new Unusable('packet index does not cover every packet');
  return offsets;
}

/** Every packet lasts one frame (1024 samples) except the last, which may be cut short. */
function checkTiming(b: Buffer, stts: Box, count: number): void {
  const entries = b.readUInt32BE(stts.start + 4);
  let seen = 0;
  for (let e = 0; e < entries; e++) {
    const n = b.readUInt32BE(stts.start + 8 + 8 * e);
    const delta = b.readUInt32BE(stts.start + 12 + 8 * e);
    const isLast = seen + n === count;
    if (delta !== FRAME && !(isLast && n === 1 && delta < FRAME))
      throw new Unusable('packets of uneven length');
    seen += n;
  }
}

/** Priming and length from the edit list (movie timescale converted to samples). */
function edits(
  b: Buffer,
  moov: Box,
  trak: Box,
  rate: number,
  packets: number,
): { priming: number; audioSamples: number } {
  const whole = packets * FRAME;
  const elst = path(b, trak, 'edts', 'elst');
  const mvhd = child(b, moov, 'mvhd');
  if (!elst || !mvhd) return { priming: 0, audioSamples: whole };
  const v = b[elst.start];
  const movieScale = b.readUInt32BE(mvhd.start + (b[mvhd.start] === 1 ? 20 : 12));
  if (b.readUInt32BE(elst.start + 4) !== 1) throw new Unusable('an edit list of more than one edit');
  const at = elst.start + 8;
  const duration = v === 1 ? Number(b.readBigUInt64BE(at)) : b.readUInt32BE(at);
  const mediaTime = v === 1 ? Number(b.readBigInt64BE(at + 8)) : b.readInt32BE(at + 4);
  const priming = Math.max(0, mediaTime);
  const audioSamples =
    duration > 0 ? Math.min(whole - priming, Math.round((duration * rate) / movieScale)) : whole - priming;
  return { priming, audioSamples };
}

/** Read the AAC track; throws Mp4Error saying why it cannot be copied. */
export function readMp4Audio(file: string): Mp4Audio {
  return readMp4(file).audio;
}

/**
 * Read the AAC track, and keep the whole index (moov) for what else it holds (tags, cover,
 * chapters: mp4/meta.ts); throws Mp4Error saying why the track cannot be copied.
 */
export function readMp4(file: string): { audio: Mp4Audio; moov: Buffer } {
  try {
    const moov = readMoov(file);
    return { audio: readAacTrack(moov), moov };
  } catch (err) {
    if (err instanceof Unusable) throw new Mp4Error(file, err.message);
    throw err;
  }
}

function readAacTrack(moovBuf: Buffer): Mp4Audio {
  const moov = { type: 'moov', start: 8, end: moovBuf.length };
  const trak = soundTrack(moovBuf);
  const stbl = path(moovBuf, trak, 'mdia', 'minf', 'stbl');
  const mdhd = path(moovBuf, trak, 'mdia', 'mdhd');
  const stsd = stbl && child(moovBuf, stbl, 'stsd');
  const stts = stbl && child(moovBuf, stbl, 'stts');
  const stsz = stbl && child(moovBuf, stbl, 'stsz');
  if (!stbl || !mdhd || !stsd || !stts || !stsz) throw new Unusable('incomplete audio track index');
  const entry = childBoxes(moovBuf, stsd.start + 8, stsd.end)[0];
  if (!entry || entry.type !== 'mp4a') throw new Unusable('not AAC');
  const soundVersion = moovBuf.readUInt16BE(entry.start + 8);
  const esds = child(moovBuf, entry, 'esds', 28 + (soundVersion === 1 ? 16 : soundVersion === 2 ? 36 : 0));
  if (!esds) throw new Unusable('no AAC configuration');
  const config = audioConfig(moovBuf, esds);
  const timescale = moovBuf.readUInt32BE(mdhd.start + (moovBuf[mdhd.start] === 1 ? 20 : 12));
  if (config.frame !== FRAME || timescale !== config.sampleRate)
    throw new Unusable('AAC framing other than 1024 samples at the stream rate');
  const sizes = sampleSizes(moovBuf, stsz);
  // A fragmented MP4 keeps its packets in moof boxes; ffmpeg decodes it, so it is re-encoded.
  if (sizes.length === 0) throw new Unusable('no packets in its index (a fragmented MP4?)');
  checkTiming(moovBuf, stts, sizes.length);
  const offsets = sampleOffsets(moovBuf, stbl, sizes);
  const { priming, audioSamples } = edits(moovBuf, moov, trak, config.sampleRate, sizes.length);
  return {
    sampleEntry: Buffer.from(moovBuf.subarray(entry.start - 8, entry.end)),
    objectType: config.objectType,
    sampleRate: config.sampleRate,
    channels: config.channels,
    sizes,
    offsets,
    priming,
    audioSamples,
  };
}
