// Covers within the limits or not at all: `--cover /dev/zero` is refused at once, having read no
// more than the limit; an input whose own picture is too large is merged without it.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mergeFiles } from '../src/engine/index.js';
import { ffprobeJson, makeTone, tempDir, tools } from './support/audio-fixtures.js';
import { runCli } from './support/cli-run.js';
import { listItems, openSession, startTestApp, upload } from './support/server-harness.js';

const exec = promisify(execFile);
let media: { dir: string; cleanup: () => Promise<void> };
const file = (name: string) => path.join(media.dir, name);

/** A valid PNG made larger than 10 MB by an ancillary chunk before its end. */
async function hugePng(out: string): Promise<void> {
  await exec(tools.ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=blue:s=32x32',
    '-frames:v',
    '1',
    file('small.png'),
  ]);
  const png = await readFile(file('small.png'));
  const iend = png.length - 12;
  const body = Buffer.alloc(11 * 1024 * 1024, 0x61);
  const chunk = Buffer.alloc(12 + body.length);
  chunk.writeUInt32BE(body.length, 0);
  chunk.write('zzZz', 4, 'latin1');
  body.copy(chunk, 8);
  await writeFile(out, Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)]));
}

beforeAll(async () => {
  media = await tempDir('cover-limits-');
  await makeTone(file('a.mp3'), { seconds: 2 });
  await hugePng(file('huge.png'));
  // The same tone carrying the huge picture as its cover (ID3 APIC).
  await exec(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-i', file('a.mp3'), '-i', file('huge.png'), '-map', '0:a', '-map', '1:v'],
    ...['-c', 'copy', '-id3v2_version', '3', '-disposition:v', 'attached_pic', file('pictured.mp3')],
  ]);
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
    const s = await openSession(app.app);
    const res = await upload(app.app, s, [{ path: file('pictured.mp3') }]);
    expect(res.statusCode, res.body).toBe(200);
    const [item] = await listItems(app.app, s);
    expect(item.format).toBe('mp3');
    expect(item.duration).toBeCloseTo(2, 1);
  } finally {
    await app.dispose();
  }
});
