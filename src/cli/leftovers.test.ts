// A run killed with SIGKILL cannot clean up: its next run does, and never touches a live run's files.
import { existsSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeErrors, makeTone, tempDir } from '../../test/support/audio-fixtures.js';
import { runCli } from '../../test/support/cli-run.js';
import { isRunning } from '../../test/support/processes.js';
import { until } from '../../test/support/until.js';

let dir: string;
let cleanup: () => Promise<void>;
let long: string;
let short: string[];
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('cli-leftovers-'));
  // Long enough to be caught re-encoding: a WAV is re-encoded to match the MP3s.
  long = await makeTone(path.join(dir, 'long.wav'), { seconds: 60, sampleRate: 22050, channels: 1 });
  short = [
    await makeTone(path.join(dir, 'a.mp3'), { seconds: 1 }),
    await makeTone(path.join(dir, 'b.mp3'), { seconds: 1, frequency: 880 }),
  ];
});
afterAll(() => cleanup());

const hidden = (folder: string) =>
  readdirSync(folder)
    .filter((n) => n.startsWith('.'))
    .sort();
const tempFolders = (folder: string) => hidden(folder).filter((n) => n.startsWith('.audio-merge-'));

/** Resolves with the name of a new run's temporary folder once ffmpeg has opened its output in it. */
async function untilTranscoding(folder: string, known: string[] = []): Promise<string> {
  const started = () =>
    tempFolders(folder).find((t) => !known.includes(t) && readdirSync(path.join(folder, t)).length > 0);
  await until(() => started() !== undefined, {
    timeoutMs: 30_000,
    what: 'the run starting to re-encode',
  });
  return started()!;
}

describe('leftovers of a killed command line', () => {
  it('are swept by the next run in that folder, while a live run keeps its files and finishes', async () => {
    const out = path.join(dir, 'out');
    await mkdir(out);

    let livePid = 0;
    try {
      // 1. a live run working in the folder
      const live = runCli(['-o', path.join(out, 'live.mp3'), long, ...short], {
        whileRunning: (pid) => (livePid = pid),
      });
      const liveTemp = await untilTranscoding(out);
      // Held still (SIGSTOP) while the others run, so it is certainly mid-merge then, however fast.
      process.kill(livePid, 'SIGSTOP');
      const liveFiles = hidden(out);
      expect(liveFiles).toHaveLength(2); // its .partial and its temporary folder

      // 2. another, killed with SIGKILL while it re-encodes: nothing can clean up after it
      const killed = await runCli(['-o', path.join(out, 'killed.mp3'), long, ...short], {
        whileRunning: (pid) =>
          void untilTranscoding(out, [liveTemp]).then(() => process.kill(pid, 'SIGKILL')),
      });
      expect(killed.code).toBeNull();
      const left = hidden(out).filter((n) => !liveFiles.includes(n));
      expect(left.some((n) => n.startsWith('.killed.mp3.') && n.endsWith('.partial'))).toBe(true);
      expect(left.filter((n) => n.startsWith('.audio-merge-'))).toHaveLength(1);
      expect(existsSync(path.join(out, 'killed.mp3'))).toBe(false);

      // 3. the next run sweeps what the killed one left, and only that
      const next = await runCli(['-o', path.join(out, 'next.mp3'), ...short]);
      expect(next.code, next.stderr).toBe(0);
      expect(isRunning(livePid)).toBe(true);
      expect(hidden(out)).toEqual(liveFiles);

      process.kill(livePid, 'SIGCONT');
      const done = await live;
      expect(done.code, done.stderr).toBe(0);
      expect(hidden(out)).toEqual([]);
      expect(await decodeErrors(path.join(out, 'live.mp3'))).toBe('');
      expect(readdirSync(out).sort()).toEqual(['live.mp3', 'next.mp3']);
    } finally {
      // Never leave a stopped process behind when an expectation fails.
      if (livePid && isRunning(livePid)) process.kill(livePid, 'SIGKILL');
    }
  }, 120_000);
});
