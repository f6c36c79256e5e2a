// The sound options as a person uses them: `node bin/audio-merge.cjs` (dist/ is built by npm test).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeErrors, makeTone, tempDir } from '../../test/support/audio-fixtures.js';
import { runCli } from '../../test/support/cli-run.js';
import { toneAtLoudness } from '../../test/support/loudness-fixtures.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

describe('audio-merge with sound options', () => {
  it('exits 2 for a gap with a crossfade, or a negative or absurd value, naming the option, and writes nothing', async () => {
    const a = await makeTone(path.join(dir, 'a.mp3'), { seconds: 1 });
    const out = path.join(dir, 'never.mp3');
    for (const [args, said] of [
      [['--gap', '1', '--crossfade', '2'], '--gap and --crossfade cannot be used together'],
      [['--gap', '-1'], '--gap must be'],
      [['--crossfade', '3600'], '--crossfade must be'],
      [['--loudness', '+3'], '--loudness must be'],
    ] as const) {
      const r = await runCli(['-o', out, a, a, ...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(said);
      expect(existsSync(out)).toBe(false);
    }
  });

  it("reports each input's measured loudness and gain in --json, MP3s copied", async () => {
    const a = await toneAtLoudness(path.join(dir, 'quiet.mp3'), -28, 3);
    const b = await toneAtLoudness(path.join(dir, 'loud.mp3'), -12, 3);
    const out = path.join(dir, 'matched.mp3');
    const r = await runCli(['-o', out, a, b, '--loudness', '-16', '--gap', '0.5', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.transcoded).toEqual([]);
    expect(report.loudness).toHaveLength(2);
    expect(report.loudness[0]).toMatchObject({ input: 0, measured: expect.closeTo(-28, 0) });
    expect(report.loudness[0].gainDb).toBeGreaterThan(10);
    expect(report.loudness[1].gainDb).toBeLessThan(-3);
    expect(await decodeErrors(out)).toBe('');
  });

  it('says on stderr when a crossfade had to be shortened', async () => {
    const a = await makeTone(path.join(dir, 'long.wav'), { seconds: 4 });
    const b = await makeTone(path.join(dir, 'short.wav'), { seconds: 1, frequency: 660 });
    const r = await runCli(['-o', path.join(dir, 'faded.flac'), a, b, '--crossfade', '2']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/crossfade between .*long\.wav and .*short\.wav shortened to 0\.500 s/);
  });
});
