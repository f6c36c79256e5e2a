// --trim as a person uses it: `node bin/audio-merge.cjs` (dist/ is built by npm test).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from '../../test/support/audio-fixtures.js';
import { runCli } from '../../test/support/cli-run.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

describe('audio-merge --trim', () => {
  it('keeps the spans asked, lists them in --json, chapters where each trimmed input starts', async () => {
    const a = await makeTone(path.join(dir, 'a.wav'), { seconds: 4 });
    const b = await makeTone(path.join(dir, 'b.wav'), { seconds: 3, frequency: 660 });
    const out = path.join(dir, 'out.flac');
    const r = await runCli(['-o', out, a, b, '--trim', '1=0:01.5-', '--trim=2=-2', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.trims).toEqual([
      { input: 0, start: 1.5, end: 4 },
      { input: 1, start: 0, end: 2 },
    ]);
    expect(report.durationSeconds).toBeCloseTo(4.5, 3);
    expect(report.chapters.map((c: { start: number }) => c.start)).toEqual([0, 2.5]);
  });

  it('exits 2 naming the trim: no such input, past the end, empty, unreadable; nothing written', async () => {
    const a = await makeTone(path.join(dir, 'c.wav'), { seconds: 2 });
    const out = path.join(dir, 'never.wav');
    for (const [trim, said] of [
      ['3=1-', '--trim 3=1-: input 3 does not exist'],
      ['1=1-2.5', "--trim 1=1-2.5: ends past the input's end"],
      ['2=1.5-1.5', '--trim 2=1.5-1.5: keeps nothing'],
      ['1=1:75-', '--trim 1=1:75-: start "1:75" is not seconds'],
      ['x=1-2', '--trim x=1-2: must be N=START-END'],
    ]) {
      const r = await runCli(['-o', out, a, a, '--trim', trim]);
      expect(r.code, trim).toBe(2);
      expect(r.stderr).toContain(said);
      expect(existsSync(out)).toBe(false);
    }
  });
});
