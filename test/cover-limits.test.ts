// Covers within the limits or not at all: `--cover /dev/zero` is refused at once, having read no
// more than the limit, and a `--cover` pipe that never ends does not hold off SIGTERM; an input
// whose own picture is too large, or junk dressed as a PNG, is merged without it; a picture just
// within the limits is written whole in every format that carries one.
import { execFile } from 'node:child_process';
import { existsSync, readlinkSync, readdirSync } from 'node:fs';
import { open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseFile } from 'music-metadata';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mergeFiles } from '../src/engine/index.js';
import { buildId3v23 } from '../src/engine/mp3/id3-write.js';
import { ffprobeJson, makeTone, tempDir, tools } from './support/audio-fixtures.js';
import { runCli } from './support/cli-run.js';
import { makeImage, withPicture } from './support/pictures.js';
import { sessionHolding, startTestApp } from './support/server-harness.js';

const exec = promisify(execFile);
let media: { dir: string; cleanup: () => Promise<void> };
const file = (name: string) => path.join(media.dir, name);

/** A valid PNG made `bytes` long (about) by an ancillary chunk before its end. */
async function paddedPng(out: string, bytes: number): Promise<void> {
  const png = await makeImage(file('small.png'), { colour: 'blue', size: '32x32' });
  const iend = png.length - 12;
  const body = Buffer.alloc(bytes, 0x61);
  const chunk = Buffer.alloc(12 + body.length);
  chunk.writeUInt32BE(body.length, 0);
  chunk.write('zzZz', 4, 'latin1');
  body.copy(chunk, 8);
  await writeFile(out, Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)]));
}

beforeAll(async () => {
  media = await tempDir('cover-limits-');
  await makeTone(file('a.mp3'), { seconds: 2 });
  await paddedPng(file('huge.png'), 11 * 1024 * 1024);
  await paddedPng(file('largest.png'), 10 * 1024 * 1024 - 4096);
  // An MP3 whose ID3 picture starts like a PNG and is junk after its signature.
  const junk = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(4000, 7)]);
  const tag = buildId3v23({ title: 'Junk art', cover: { mime: 'image/png', data: junk } });
  await writeFile(file('junk-art.mp3'), Buffer.concat([tag, await readFile(file('a.mp3'))]));
  // The same tone carrying the huge picture as its cover (ID3 APIC).
  await withPicture(file('a.mp3'), file('huge.png'), file('pictured.mp3'));
});
afterAll(() => media?.cleanup());

it('refuses `--cover /dev/zero` saying why, with no output left', async () => {
  const out = file('zero.mp3');
  const run = await runCli(['-o', out, '--cover', '/dev/zero', file('a.mp3')]);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/\/dev\/zero.*larger than 10 MB/);
  expect(existsSync(out)).toBe(false);
});

it('merges an input whose own picture is over the limit, leaving the picture out', async () => {
  const out = file('merged.m4b');
  const report = await mergeFiles([file('pictured.mp3'), file('a.mp3')], out);
  expect(report.durationSeconds).toBeGreaterThan(3.9);
  const probed = await ffprobeJson(out);
  expect(probed.streams.filter((s) => s.codec_type === 'video')).toEqual([]);
  expect(probed.streams.filter((s) => s.codec_type === 'audio')).toHaveLength(1);
});

it('stores an upload whose picture is over the limit as the audio it is', async () => {
  const app = await startTestApp();
  try {
    const [item] = (await sessionHolding(app.app, [file('pictured.mp3')])).items;
    expect(item.format).toBe('mp3');
    expect(item.duration).toBeCloseTo(2, 1);
  } finally {
    await app.dispose();
  }
});

it('merges an input whose picture is junk that starts like a PNG, to FLAC, leaving the picture out', async () => {
  const out = file('junk-art.flac');
  const report = await mergeFiles([file('junk-art.mp3'), file('a.mp3')], out);
  expect(report.durationSeconds).toBeGreaterThan(3.9);
  const mm = await parseFile(out);
  expect(mm.common.picture ?? []).toEqual([]);
  expect(mm.common.title).toBe('Junk art');
});

/** The picture ffmpeg finds attached to `file`, as its stored bytes. */
async function attachedPicture(file: string): Promise<Buffer> {
  const { stdout } = await exec(
    tools.ffmpeg,
    ['-v', 'error', '-i', file, '-map', '0:v:0', '-c', 'copy', '-frames:v', '1', '-f', 'image2pipe', '-'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

it('writes a picture just within 10 MB whole in MP3, M4B, FLAC, Opus and Ogg', async () => {
  const png = await readFile(file('largest.png'));
  expect(png.length).toBeGreaterThan(9.9 * 1024 * 1024);
  for (const format of ['mp3', 'm4b', 'flac', 'opus', 'ogg'] as const) {
    const out = file(`largest.${format}`);
    await mergeFiles([file('a.mp3'), file('a.mp3')], out, { cover: file('largest.png') });
    expect((await attachedPicture(out)).equals(png), format).toBe(true);
  }
});

/** True once `pid` holds `target` open (Linux /proc). */
const holds = (pid: number, target: string) => {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === target);
  } catch {
    return false;
  }
};

it('honours SIGTERM while reading a `--cover` pipe that never ends, leaving no output', async () => {
  const fifo = file('cover.fifo');
  await promisify(execFile)('mkfifo', [fifo]);
  // Held open for writing here (read-write opens a FIFO at once): a writer that sends eight bytes
  // of a PNG and then nothing, never closing while the command line runs.
  const writer = await open(fifo, 'r+');
  try {
    await writer.write(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'));
    const out = file('from-pipe.mp3');
    let pid = 0;
    const run = runCli(['-o', out, '--cover', fifo, file('a.mp3')], { whileRunning: (p) => (pid = p) });
    await expect.poll(() => holds(pid, fifo), { timeout: 20_000 }).toBe(true);
    process.kill(pid, 'SIGTERM');
    const done = await run;
    expect(done.code).toBe(143);
    expect(done.stderr).toMatch(/cancelled/);
    expect(existsSync(out)).toBe(false);
  } finally {
    await writer.close();
  }
});
