// What one merge may decode is bounded before it starts: the inputs' decoded durations (measured
// at upload, whatever a header claims), each use of an item counted, against MAX_MERGE_HOURS.
// Refused merges are a 413 `merge-too-long` with nothing queued and nothing written; what a
// merge writes is capped at MAX_SAMPLE_RATE and MAX_CHANNELS.
import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc16 } from '../src/engine/mp3/lame.js';
import { ffprobeJson, makeTone, tools } from './support/audio-fixtures.js';
import { flacClaiming } from './support/flac-claims.js';
import { useMediaApp } from './support/media-app.js';
import {
  postJson,
  sessionHolding,
  startTestApp,
  type TestApp,
  type TestSession,
} from './support/server-harness.js';

const exec = promisify(execFile);

/** A WAV of `dataBytes` of silence whose header says `rate` Hz. */
function wavClaiming(rate: number, dataBytes: number, channels = 2): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * channels * 2, 28);
  h.writeUInt16LE(channels * 2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([h, Buffer.alloc(dataBytes)]);
}

/** Silence made by ffmpeg: `seconds` at `rate` Hz in `layout` channels. */
const silence = (out: string, seconds: number, rate: number, layout: string) =>
  exec(tools.ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `anullsrc=r=${rate}:cl=${layout}`,
    '-t',
    String(seconds),
    '-c:a',
    'flac',
    out,
  ]);

/**
 * Rewrite the frame count in an MP3's Xing header to a twentieth of the truth, and its LAME tag's
 * CRC to match: the header then claims 30 s of a 600 s file, and every check of the tag holds.
 */
async function mp3Claiming(src: string, out: string): Promise<void> {
  const bytes = await readFile(src);
  const tagEnd =
    bytes.toString('latin1', 0, 3) === 'ID3'
      ? 10 + ((bytes[6] << 21) | (bytes[7] << 14) | (bytes[8] << 7) | bytes[9])
      : 0;
  // MPEG 2.5 mono (8 kHz): 4 header bytes and 9 of side information, then "Xing", its flags,
  // the frame count, the byte count, a 100-byte table and a quality word (as LAME writes them).
  const xing = tagEnd + 4 + 9;
  expect(bytes.toString('latin1', xing, xing + 4)).toBe('Xing');
  expect(bytes.readUInt32BE(xing + 4)).toBe(0x0f);
  bytes.writeUInt32BE(Math.ceil(bytes.readUInt32BE(xing + 8) / 20), xing + 8);
  const crcAt = xing + 8 + 4 + 4 + 100 + 4 + 34;
  bytes.writeUInt16BE(crc16(bytes, tagEnd, crcAt), crcAt);
  await writeFile(out, bytes);
}

const env = useMediaApp({
  prefix: 'merge-budget-',
  media: async (file) => {
    // 882 KB whose header says 1 Hz: 220,500 s (61 h) of "audio".
    await writeFile(file('one-hertz.wav'), wavClaiming(1, 882_000));
    await writeFile(file('one-hertz-small.wav'), wavClaiming(1, 176_000));
    // Ten minutes of 192 kHz 7.1 silence: about 250 KB.
    await silence(file('tiny-but-long.flac'), 600, 192000, '7.1');
    // Ten minutes at 8 kHz whose header says one second.
    await silence(file('long.flac'), 600, 8000, 'mono');
    await flacClaiming(file('long.flac'), file('claims-one-second.flac'), 8000);
    await flacClaiming(file('long.flac'), file('claims-unknown.flac'), 0);
    await silence(file('hi-res.flac'), 2, 192000, '7.1');
    // Ten minutes of an 8 kHz tone as LAME's smallest VBR MP3 (about 600 KB), then claiming 30 s.
    await exec(tools.ffmpeg, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=440:r=8000:d=600', '-ac', '1'],
      ...['-c:a', 'libmp3lame', '-q:a', '9', file('long.mp3')],
    ]);
    await mp3Claiming(file('long.mp3'), file('claims-thirty-seconds.mp3'));
    await makeTone(file('twenty-seconds.mp3'), { seconds: 20 });
  },
  config: { maxFiles: 600, maxMergeHours: 24 },
});
const { file, allJobs } = env;

async function uploaded(s: TestSession, name: string) {
  return (await env.uploadAll(s, [name])).find((i) => i.filename === name)!;
}

const merge = (s: TestSession, ids: string[], options?: object) => env.merge(s, ids, { options });

async function expectRefusedBeforeWork(res: Awaited<ReturnType<typeof merge>>) {
  expect(res.statusCode).toBe(413);
  expect(res.json()).toMatchObject({
    code: 'merge-too-long',
    error: expect.stringMatching(/at most 24 hours/),
  });
  expect(await allJobs()).toEqual([]);
  expect(await readdir(path.join(env.app.dataDir, 'tmp')).catch(() => [])).toEqual([]);
}

describe('the merge budget (MAX_MERGE_HOURS 24)', () => {
  it('refuses at upload the 882 KB WAV whose header says 1 Hz, and the 176 KB one, naming each, storing nothing', async () => {
    const s = await env.session();
    for (const name of ['one-hertz.wav', 'one-hertz-small.wav']) {
      const res = await env.upload(s, [{ path: file(name) }]);
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json()).toMatchObject({
        code: 'bad-rate',
        error: expect.stringMatching(new RegExp(`${name}.*sample rate no real audio has`)),
      });
    }
    expect(await env.items(s)).toEqual([]);
    expect(await readdir(path.join(env.app.dataDir, 'uploads', s.sid)).catch(() => [])).toEqual([]);
  });

  it('counts each use of an item: the tiny 192 kHz 7.1 FLAC repeated 500 times is refused', async () => {
    const s = await env.session();
    const item = await uploaded(s, 'tiny-but-long.flac');
    expect(item.duration).toBeCloseTo(600, 0);
    await expectRefusedBeforeWork(await merge(s, Array(500).fill(item.id), { format: 'wav' }));
  });

  it('budgets by the decoded length, not the one the header claims', async () => {
    const s = await env.session();
    const item = await uploaded(s, 'claims-one-second.flac');
    expect((await ffprobeJson(file('claims-one-second.flac'))).format.duration).toBe('1.000000');
    expect(item.duration).toBeCloseTo(600, 0);
    // 500 uses of a "1 s" file would pass a budget taken from its header; 500 x 600 s do not.
    await expectRefusedBeforeWork(await merge(s, Array(500).fill(item.id)));
  });

  it('budgets an MP3 by its frames, every one counted, not by the count its LAME tag states', async () => {
    const s = await env.session();
    const item = await uploaded(s, 'claims-thirty-seconds.mp3');
    expect(Number((await ffprobeJson(file('claims-thirty-seconds.mp3'))).format.duration)).toBeLessThan(31);
    // What it plays, and the encoder's delay and padding: under three frames (216 ms at 8 kHz).
    expect(item.duration).toBeGreaterThanOrEqual(600);
    expect(item.duration).toBeLessThan(600.216);
    // 200 uses of a "30 s" file would pass (under 2 h); 200 x 600 s (33 h) do not.
    await expectRefusedBeforeWork(await merge(s, Array(200).fill(item.id)));
  });
});

describe('a FLAC whose STREAMINFO misstates its length merges as long as it decodes', () => {
  const resultSeconds = async (s: TestSession) => {
    const [result] = await env.app.store.listResults(s.sid);
    const probed = await ffprobeJson(path.join(env.app.dataDir, 'results', s.sid, result.file));
    return { listed: result.duration, probed: Number(probed.format.duration) };
  };

  it('keeps a span of 10-20 s of the 600 s file that says 1 s', async () => {
    const s = await env.session();
    const flac = await uploaded(s, 'claims-one-second.flac');
    const tone = await uploaded(s, 'twenty-seconds.mp3');
    const kept = await env.post(s, '/app/merge/saveItem', { id: flac.id, start: 10, end: 20 });
    expect(kept.statusCode, kept.body).toBe(200);
    const res = await merge(s, [flac.id, tone.id], { format: 'mp3' });
    expect(res.statusCode, res.body).toBe(200);
    // 10 s kept of it, then the tone's 20 s.
    const { listed, probed } = await resultSeconds(s);
    expect(probed).toBeCloseTo(30, 0);
    expect(listed).toBeCloseTo(probed, 1);
  });

  it('keeps all 600 s of it, and of one that states 0 (unknown), merged whole', async () => {
    const s = await env.session();
    const ids = [
      (await uploaded(s, 'claims-one-second.flac')).id,
      (await uploaded(s, 'claims-unknown.flac')).id,
    ];
    const res = await merge(s, ids, { format: 'mp3' });
    expect(res.statusCode, res.body).toBe(200);
    // An MP3 made of FLAC is encoded as one timeline: its length within one frame (72 ms at 8 kHz).
    const { listed, probed } = await resultSeconds(s);
    expect(Math.abs(probed - 1200)).toBeLessThan(0.072);
    expect(Math.abs(listed - 1200)).toBeLessThan(0.072);
  });
});

describe('output caps (MAX_SAMPLE_RATE 96000, MAX_CHANNELS 2)', () => {
  it('writes a 192 kHz 7.1 input as 96 kHz stereo', async () => {
    const s = await env.session();
    const item = await uploaded(s, 'hi-res.flac');
    const res = await merge(s, [item.id, item.id], { format: 'wav' });
    expect(res.statusCode).toBe(200);
    const [result] = await env.app.store.listResults(s.sid);
    const probed = await ffprobeJson(path.join(env.app.dataDir, 'results', s.sid, result.file));
    const audio = probed.streams.find((st) => st.codec_type === 'audio')!;
    expect(Number(audio.sample_rate)).toBe(96000);
    expect(audio.channels).toBe(2);
    expect(Number(probed.format.duration)).toBeCloseTo(4, 1);
  });
});

describe('the merge budget counts each use as trimmed (MAX_MERGE_HOURS 0.01: 36 s)', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await startTestApp({ maxMergeHours: 0.01 });
  });
  afterAll(async () => {
    await small?.dispose();
  });

  /** A session with the 20 s tone uploaded once. */
  async function withTone() {
    const {
      s,
      items: [item],
    } = await sessionHolding(small.app, [file('twenty-seconds.mp3')]);
    expect(item.duration).toBeCloseTo(20, 0);
    return { s, id: item.id };
  }
  const keep = (s: TestSession, id: string, start: number | null, end: number | null) =>
    postJson(small.app, s, '/app/merge/saveItem', { id, start, end });
  const mergeTwice = (s: TestSession, id: string) =>
    postJson(small.app, s, '/app/merge/mergemp3', { items: [{ id }, { id }], options: { format: 'mp3' } });

  it('accepts two uses whose whole 40 s exceed the limit when their kept 2 x 10 s fit', async () => {
    const { s, id } = await withTone();
    const whole = await mergeTwice(s, id);
    expect(whole.statusCode).toBe(413);
    expect(whole.json()).toMatchObject({ code: 'merge-too-long' });

    expect((await keep(s, id, 5, 15)).statusCode).toBe(200);
    const kept = await mergeTwice(s, id);
    expect(kept.statusCode, kept.body).toBe(200);
    const [result] = await small.store.listResults(s.sid);
    const probed = await ffprobeJson(path.join(small.dataDir, 'results', s.sid, result.file));
    expect(Number(probed.format.duration)).toBeCloseTo(20, 0);
  });

  it('refuses two uses whose kept spans (a start only, then an end only) still last over 36 s', async () => {
    const { s, id } = await withTone();
    // From 1 s to the file's own end: 19 s kept, twice is 38 s.
    expect((await keep(s, id, 1, null)).statusCode).toBe(200);
    const late = await mergeTwice(s, id);
    expect(late.statusCode).toBe(413);
    expect(late.json()).toMatchObject({ code: 'merge-too-long' });
    // From the file's own start to 17 s: 34 s in all fits.
    expect((await keep(s, id, null, 17)).statusCode).toBe(200);
    expect((await mergeTwice(s, id)).statusCode).toBe(200);
  });
});
