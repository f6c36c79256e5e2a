// Chapters at silences and a book in parts as a person asks for them: `node bin/audio-merge.cjs`
// (dist/ is built by npm test).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/audio-fixtures.js';
import { runCli } from '../../test/support/cli-run.js';
import { spokenBook, writeSpoken, type SpokenBook } from '../../test/support/spoken-book.js';

let dir: string;
let cleanup: () => Promise<void>;
let book: SpokenBook;
let input: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  book = spokenBook({ seconds: 60, breaksAt: [25], sampleRate: 22050 });
  input = await writeSpoken(book, path.join(dir, 'story.mp3'), undefined, [
    '-c:a',
    'libmp3lame',
    '-b:a',
    '48k',
  ]);
});
afterAll(() => cleanup());

describe('audio-merge --chapters-at and --split', () => {
  it('puts a chapter in the silence and writes one part per chapter, listed in --json', async () => {
    const out = path.join(dir, 'story.m4b');
    const r = await runCli([
      '-o',
      out,
      input,
      '--chapters-at',
      'silences',
      '--silence-min',
      '2.5',
      '--split',
      'chapters',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.chapters.map((c: { title: string }) => c.title)).toEqual(['story', 'Chapter 2']);
    const [s] = book.silences;
    expect(report.chapters[1].start).toBeGreaterThanOrEqual(s.start);
    expect(s.end - report.chapters[1].start).toBeLessThanOrEqual(1);
    expect(report.parts.map((p: { output: string }) => path.basename(p.output))).toEqual([
      'story-01.m4b',
      'story-02.m4b',
    ]);
    expect(report.parts[1]).toMatchObject({
      start: report.chapters[1].start,
      chapters: [{ title: 'Chapter 2', start: 0 }],
    });
    expect(existsSync(out)).toBe(false);
    for (const p of report.parts) expect(existsSync(p.output)).toBe(true);
  });

  it('says on stderr, in one line, which parts it wrote', async () => {
    const out = path.join(dir, 'said.mp3');
    const r = await runCli(['-o', out, input, '--chapters-at', 'both', '--split', '30']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^audio-merge: wrote \d parts, .*said-01\.mp3 to .*said-0\d\.mp3 \(1:00, [\d.]+ KB, 2 chapters\)\n$/,
    );
  });

  it('with --no-clobber, leaves the parts of an earlier run and exits 1', async () => {
    const out = path.join(dir, 'story.m4b');
    const first = await runCli(['-o', out, input, '--split', 'chapters', '--chapters-at', 'silences', '-q']);
    expect(first.code).toBe(0);
    const again = await runCli(['-o', out, input, '--split', 'chapters', '-n']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('story-01.m4b exists; not overwritten (--no-clobber)');
  });

  it('exits 2 naming a bad value, writing nothing', async () => {
    const out = path.join(dir, 'never.mp3');
    const r = await runCli(['-o', out, input, '--chapters-at', 'pauses']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--chapters-at must be one of files, silences, both');
    expect(existsSync(out)).toBe(false);
  });
});
