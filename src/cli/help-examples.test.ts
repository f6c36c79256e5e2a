// The examples --help (and README) give, run as written in a shell, in a folder holding the files
// they name; the line a job ends with; the option a mistyped one most likely meant.
import { spawn } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobeJson, makeTone, tempDir } from '../../test/support/audio-fixtures.js';
import { cliBin, runCli } from '../../test/support/cli-run.js';
import { makeImage } from '../../test/support/pictures.js';
import { EXAMPLES } from './help.js';

let dir: string;
let bin: string;
let cleanup: () => Promise<void>;

/** The files the examples name, made on the spot. */
async function makeExampleInputs(): Promise<void> {
  await mkdir(path.join(dir, 'chapters'));
  await makeTone(path.join(dir, 'chapters', '1 Opening.mp3'), { seconds: 2, frequency: 300 });
  await makeTone(path.join(dir, 'chapters', '2 Middle.wav'), { seconds: 2, frequency: 500 });
  await makeTone(path.join(dir, 'chapters', '10 End.flac'), { seconds: 2, frequency: 700 });
  await writeFile(path.join(dir, 'chapters', 'notes.txt'), 'not audio');
  await makeImage(path.join(dir, 'cover.jpg'));
  await makeTone(path.join(dir, 'intro.mp3'), { seconds: 8, frequency: 400 });
  await makeTone(path.join(dir, 'talk.wav'), { seconds: 24, frequency: 600 });
  await makeTone(path.join(dir, 'one.flac'), { seconds: 1, frequency: 800 });
  await makeTone(path.join(dir, 'two.flac'), { seconds: 1.5, frequency: 900 });
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  // `audio-merge` on PATH, as `npm install -g` makes it.
  bin = path.join(dir, '.bin');
  await mkdir(bin);
  await writeFile(path.join(bin, 'audio-merge'), `#!/bin/sh\nexec '${process.execPath}' '${cliBin}' "$@"\n`);
  await chmod(path.join(bin, 'audio-merge'), 0o755);
  await makeExampleInputs();
});
afterAll(() => cleanup());

function shell(command: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
    const child = spawn('/bin/sh', ['-c', command], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const duration = async (file: string) => Number((await ffprobeJson(path.join(dir, file))).format.duration);

describe('the examples in --help, run as written', () => {
  it('there are the three the README shows too', async () => {
    const readme = await readFile('README.md', 'utf8');
    expect(EXAMPLES).toHaveLength(3);
    for (const e of EXAMPLES) expect(readme).toContain(e.command);
  });

  it('a folder into an M4B with a cover: a chapter per audio file, in natural order', async () => {
    const r = await shell(EXAMPLES[0].command);
    expect(r.stderr).toMatch(/^audio-merge: wrote book\.m4b \(0:06, [\d.]+ KB, 3 chapters\)\n$/);
    expect(r.code).toBe(0);
    const probe = await ffprobeJson(path.join(dir, 'book.m4b'));
    expect(probe.format.tags?.title).toBe('The Book');
    expect(probe.streams.some((s) => s.codec_type === 'video')).toBe(true); // the cover
    const check = await runCli(['-o', path.join(dir, 'again.m4b'), '--json', 'chapters/'], { cwd: dir });
    const titles = JSON.parse(check.stdout).chapters.map((c: { title: string }) => c.title);
    expect(titles).toEqual(['1 Opening', '2 Middle', '10 End']);
  });

  it('trims and loudness: 3 s of intro and 20 s of talk', async () => {
    const r = await shell(EXAMPLES[1].command);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/audio-merge: wrote show\.mp3 \(0:23, [\d.]+ KB, 2 chapters\)\n$/);
    // Within an MP3 frame (26 ms) at each of the two inputs' ends.
    expect(Math.abs((await duration('show.mp3')) - 23)).toBeLessThan(0.06);
  });

  it('the JSON report, redirected to a file', async () => {
    const r = await shell(EXAMPLES[2].command);
    expect(r).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ format: 'flac', inputs: 2, transcoded: [] });
    expect(report.durationSeconds).toBeCloseTo(2.5, 3);
  });
});

describe('a mistyped option', () => {
  it.each([
    ['--loudnes', '--loudness'],
    ['--crosfade', '--crossfade'],
    ['--tilte', '--title'],
    ['--no-chapter', '--no-chapters'],
  ])('%s: exit 2, "did you mean %s?"', async (typed, meant) => {
    const r = await runCli(['-o', 'x.mp3', typed, '1', 'one.flac'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`audio-merge: unknown option ${typed}; did you mean ${meant}?`);
  });

  it('suggests nothing for an option nothing is near', async () => {
    const r = await runCli(['-o', 'x.mp3', '--colour', 'one.flac'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe('audio-merge: unknown option --colour');
  });
});
