// The book's details, cover and chapters file as a person gives them to `node bin/audio-merge.cjs`
// (dist/ is built by npm test).
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from '../../test/support/audio-fixtures.js';
import { makeImage } from '../../test/support/pictures.js';
import { ffprobeChapters } from '../../test/support/chapter-readers.js';
import { runCli } from '../../test/support/cli-run.js';

let dir: string;
let cleanup: () => Promise<void>;
let a: string;
let b: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  a = await makeTone(path.join(dir, 'a.mp3'), { seconds: 3 });
  b = await makeTone(path.join(dir, 'b.mp3'), { seconds: 3, frequency: 660 });
}, 60_000);
afterAll(() => cleanup());

describe('audio-merge with a book in mind', () => {
  it('writes the chapters of a chapters file, and reports the details it wrote', async () => {
    const file = path.join(dir, 'chapters.txt');
    await writeFile(file, '# the book\n0:00 Opening\n\n0:01.5 Part Two\n4.25 Part Three\n');
    const out = path.join(dir, 'listed.mp3');
    const r = await runCli([
      '-o',
      out,
      a,
      b,
      '--chapters',
      file,
      '--narrator',
      'Nia',
      '--year',
      '2020',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { chapters: { title: string; start: number }[]; tags: object };
    expect(report.chapters.map((c) => [c.title, c.start])).toEqual([
      ['Opening', 0],
      ['Part Two', 1.5],
      ['Part Three', 4.25],
    ]);
    expect(report.tags).toMatchObject({ composer: 'Nia', date: '2020' });
    const probed = await ffprobeChapters(out);
    expect(probed.map((c) => [c.title, c.start])).toEqual([
      ['Opening', 0],
      ['Part Two', 1.5],
      ['Part Three', 4.25],
    ]);
  });

  it('exits 2 naming the line of a chapters file it cannot read, or whose chapter starts past the end', async () => {
    const out = path.join(dir, 'never.mp3');
    const bad = path.join(dir, 'bad.txt');
    await writeFile(bad, '0:00 Opening\nlater Part Two\n');
    let r = await runCli(['-o', out, a, b, '--chapters', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bad.txt, line 2');
    const past = path.join(dir, 'past.txt');
    await writeFile(past, '0:00 Opening\n# more\n1:00 Too late\n');
    r = await runCli(['-o', out, a, b, '--chapters', past]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('line 3');
    expect(r.stderr).toContain("past the output's end");
    const latin1 = path.join(dir, 'latin1.txt');
    await writeFile(latin1, Buffer.from('0:00 Opening\n0:01 Caf\u00e9\n', 'latin1'));
    r = await runCli(['-o', out, a, b, '--chapters', latin1]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('latin1.txt, line 2: is not UTF-8 text');
    expect(existsSync(out)).toBe(false);
  });

  it('exits 2 for a chapters file over 4 MB, reading no further: a long comment, or /dev/zero', async () => {
    const out = path.join(dir, 'never.mp3');
    const long = path.join(dir, 'long.txt');
    await writeFile(long, `0:00 Opening\n# ${'x'.repeat(5 * 1024 * 1024)}\n`);
    for (const file of [long, '/dev/zero']) {
      const r = await runCli(['-o', out, a, b, '--chapters', file]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`the chapters file ${file} is larger than 4 MB`);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('exits 2 for a detail with control characters, and for a cover beyond its limits', async () => {
    const out = path.join(dir, 'never.mp3');
    let r = await runCli(['-o', out, a, b, '--title', 'Bad\u0007Title']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--title');
    r = await runCli(['-o', out, a, b, '--artist', 'gpj\u2066.exe']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--artist');
    r = await runCli(['-o', out, a, b, '--description', 'Two\nlines\tare fine', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const huge = path.join(dir, 'huge.png');
    await makeImage(huge, { colour: 'blue', size: '8x4200' });
    const never = path.join(dir, 'never2.mp3');
    r = await runCli(['-o', never, a, b, '--cover', huge]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('4096');
    r = await runCli(['-o', never, a, b, '--cover', a]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not a JPEG or PNG');
    expect(existsSync(never)).toBe(false);
  });

  it('exits 2 for channels or a rate it cannot write', async () => {
    const out = path.join(dir, 'never.mp3');
    for (const args of [
      ['--channels', '6'],
      ['--sample-rate', '100'],
      ['--input-chapters', 'merge'],
    ]) {
      const r = await runCli(['-o', out, a, b, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(args[0]);
    }
  });
});
