// A tool left running by a process that is gone, writing into this scratch folder, is killed at
// start-up; a tool working anywhere else is none of this server's business.
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir, tools } from '../../../test/support/audio-fixtures.js';
import { isRunning, waitUntilGone } from '../../../test/support/processes.js';
import { killLeftoverTools } from './leftover-tools.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir('leftover-tools-')));
afterAll(() => cleanup());

/** An ffmpeg that writes silence in real time into `out` for ten minutes. */
function slowFfmpeg(out: string): number {
  const child = spawn(
    tools.ffmpeg,
    ['-v', 'error', '-re', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '600', '-y', `file:${out}`],
    { stdio: 'ignore' },
  );
  child.unref();
  return child.pid!;
}

it('kills the tools working in this scratch folder, and only those', async () => {
  const scratch = path.join(dir, 'data', 'tmp');
  await mkdir(path.join(scratch, 'job-1'), { recursive: true });
  await mkdir(path.join(dir, 'elsewhere'), { recursive: true });
  const left = slowFfmpeg(path.join(scratch, 'job-1', 'merged.wav'));
  const other = slowFfmpeg(path.join(dir, 'elsewhere', 'out.wav'));
  try {
    expect(await killLeftoverTools(scratch)).toEqual([left]);
    expect(await waitUntilGone(left)).toBe(true);
    expect(isRunning(other)).toBe(true);
  } finally {
    for (const p of [left, other]) if (isRunning(p)) process.kill(p, 'SIGKILL');
  }
});
