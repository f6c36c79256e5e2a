// The ffmpeg processes a server or a command line started end within 2 s of its SIGKILL, which no
// exit hook sees. The input is three hours of 8 kHz silence: a small FLAC whose MP3 encode runs
// far longer than the test, so a tool that is gone was killed, it did not just finish.
import { spawn, execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir, tools } from './support/audio-fixtures.js';
import { runCli } from './support/cli-run.js';
import { httpPost, httpUpload, openHttpSession } from './support/http-session.js';
import { childrenNamed, isRunning, waitUntilGone } from './support/processes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let media: { dir: string; cleanup: () => Promise<void> };
let long: string;

beforeAll(async () => {
  media = await tempDir('tools-die-');
  long = path.join(media.dir, 'three-hours.flac');
  await promisify(execFile)(tools.ffmpeg, [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '10800'],
    ...['-c:a', 'flac', long],
  ]);
});
afterAll(() => media?.cleanup());

/**
 * The ffmpeg children of `pid`, once there are some and they are under way: a child shows in
 * /proc a moment before its parent's spawn returns and the parent can tell its watchdog (a kill
 * in that moment is what the server's start-up sweep is for).
 */
async function ffmpegOf(pid: number): Promise<number[]> {
  for (let i = 0; i < 3000; i++) {
    const found = childrenNamed('ffmpeg', pid);
    if (found.length > 0) {
      await new Promise((r) => setTimeout(r, 500));
      return childrenNamed('ffmpeg', pid);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('no ffmpeg was started');
}

/** True when every pid is gone within 2 s (100 checks 20 ms apart). */
const allGoneWithin2s = async (pids: number[]) =>
  (await Promise.all(pids.map((p) => waitUntilGone(p, 100)))).every(Boolean);

it("the command line's ffmpeg ends with it", async () => {
  let cliPid = 0;
  const run = runCli(['-o', path.join(media.dir, 'out.mp3'), long], {
    whileRunning: (pid) => (cliPid = pid),
  });
  const encoders = await ffmpegOf(cliPid);
  expect(encoders.length).toBeGreaterThan(0);
  process.kill(cliPid, 'SIGKILL');
  await run;
  try {
    expect(await allGoneWithin2s(encoders)).toBe(true);
  } finally {
    for (const p of encoders) if (isRunning(p)) process.kill(p, 'SIGKILL');
  }
});

it("the server's ffmpeg ends with it", async () => {
  const data = await tempDir('tools-die-server-');
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: data.dir,
      PORT: '0',
      SOCKET_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let encoders: number[] = [];
  try {
    let out = '';
    const base = await new Promise<string>((resolve, reject) => {
      const check = () => {
        const m = /audio-merge: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
        if (m) resolve(m[1]);
      };
      server.stdout.on('data', (d) => ((out += d), check()));
      server.stderr.on('data', (d) => (out += d));
      server.on('exit', () => reject(new Error(`exited early:\n${out}`)));
    });
    const s = await openHttpSession(base);
    const uploaded = await httpUpload(base, s, [
      { filename: 'three-hours.flac', content: await readFile(long) },
    ]);
    expect(uploaded.status).toBe(200);
    const [item] = uploaded.json<{ items: Array<{ id: string }> }>().items;
    void httpPost(base, s, '/app/merge/mergemp3', { items: [{ id: item.id }] }).catch(() => {});
    encoders = await ffmpegOf(server.pid!);
    expect(encoders.length).toBeGreaterThan(0);
    server.kill('SIGKILL');
    expect(await allGoneWithin2s(encoders)).toBe(true);
  } finally {
    if (server.exitCode === null) server.kill('SIGKILL');
    for (const p of encoders) if (isRunning(p)) process.kill(p, 'SIGKILL');
    await data.cleanup();
  }
});
