import { describe, expect, it } from 'vitest';
import { AbortError, ToolError } from '../errors.js';
import {
  ProgressParser,
  fileArg,
  lastLine,
  machineFault,
  spawnRunner,
  toolNiceness,
  type FfmpegProgress,
} from './runner.js';
import { readFileSync } from 'node:fs';
import { tools } from '../../../test/support/audio-fixtures.js';
import { waitUntilGone } from '../../../test/support/processes.js';

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

describe('the ffmpeg runner', () => {
  it('reads -progress blocks split across chunks', () => {
    const seen: FfmpegProgress[] = [];
    const p = new ProgressParser((b) => seen.push(b));
    p.push('frame=0\nout_time_us=1500');
    p.push('000\nout_time=00:00:01.500000\nprogress=continue\nout_time_ms=3000000\n');
    p.push('progress=end\n');
    expect(seen).toEqual([
      { outTimeSeconds: 1.5, end: false },
      { outTimeSeconds: 3, end: true },
    ]);
  });

  it('ignores N/A times', () => {
    const seen: FfmpegProgress[] = [];
    const p = new ProgressParser((b) => seen.push(b));
    p.push('out_time_us=N/A\nprogress=continue\n');
    expect(seen).toEqual([{ outTimeSeconds: 0, end: false }]);
  });

  it('passes names as they are, with no shell between', async () => {
    const r = await spawnRunner({
      bin: process.execPath,
      args: ['-e', 'process.stdout.write(process.argv[1])', `it's "a" & $HOME; %2F`],
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`it's "a" & $HOME; %2F`);
  });

  it('keeps the tail of stderr for error messages', async () => {
    const r = await spawnRunner({ bin: tools.ffprobe, args: ['-v', 'error', fileArg('/nonexistent/x.wav')] });
    expect(r.code).not.toBe(0);
    expect(lastLine(r.stderrTail)).toMatch(/No such file/);
  });

  it('kills the child on abort and rejects with AbortError once it is gone', async () => {
    const controller = new AbortController();
    let pid = 0;
    const run = spawnRunner({
      bin: process.execPath,
      args: ['-e', 'setInterval(() => {}, 1000)'],
      signal: controller.signal,
      onSpawn: (p) => (pid = p),
    });
    expect(pid).toBeGreaterThan(0);
    expect(gone(pid)).toBe(false);
    controller.abort();
    await expect(run).rejects.toBeInstanceOf(AbortError);
    expect(gone(pid)).toBe(true);
  });

  it('runs the child in the folder it is given', async () => {
    const r = await spawnRunner({
      bin: process.execPath,
      args: ['-e', 'process.stdout.write(process.cwd())'],
      cwd: '/tmp',
    });
    expect(r.stdout).toBe('/tmp');
  });

  it('says clearly when the tool cannot start', async () => {
    await expect(spawnRunner({ bin: '/nonexistent/ffmpeg', args: ['-version'] })).rejects.toThrow(ToolError);
    await expect(spawnRunner({ bin: '/nonexistent/ffmpeg', args: ['-version'] })).rejects.toThrow(
      /\/nonexistent\/ffmpeg/,
    );
  });

  it('kills its children when the parent process exits', async () => {
    // A parent that starts a long child through the runner and exits at once.
    const script = `
      import { spawnRunner } from ${JSON.stringify(new URL('./runner.ts', import.meta.url).pathname)};
      spawnRunner({ bin: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'], onSpawn: (p) => { console.log(p); process.exit(0); } });
    `;
    const r = await spawnRunner({
      bin: process.execPath,
      args: ['--import', 'tsx', '--input-type=module', '-e', script],
    });
    const pid = Number(r.stdout.trim());
    expect(pid).toBeGreaterThan(0);
    expect(await waitUntilGone(pid)).toBe(true);
  });

  it('turns names into file: arguments that ffmpeg cannot mistake for options or protocols', () => {
    expect(fileArg('/a/-x:y.mp3')).toBe('file:/a/-x:y.mp3');
    expect(fileArg('rel.wav')).toMatch(/^file:\/.*\/rel\.wav$/);
  });

  it("tells the machine's faults from the input's in ffmpeg's last line", () => {
    expect(machineFault('av_interleaved_write_frame(): No space left on device')).toBe('disk-full');
    expect(machineFault('Error writing trailer: Disk quota exceeded')).toBe('disk-full');
    expect(machineFault('/tmp/x.mp3: Read-only file system')).toBe('output-unwritable');
    expect(machineFault('Invalid data found when processing input')).toBeUndefined();
  });

  it('runs tools at the niceness a server asks for, and at its own by default', async () => {
    const niceOf = (pid: number) => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const run = async () => {
      let nice = NaN;
      await spawnRunner({
        bin: tools.ffmpeg,
        args: ['-v', 'error', '-f', 'lavfi', '-i', 'anullsrc', '-t', '1', '-f', 'null', '-'],
        onSpawn: (pid) => (nice = niceOf(pid)),
      });
      return nice;
    };
    const own = niceOf(process.pid);
    expect(await run()).toBe(own);
    toolNiceness(10);
    try {
      expect(await run()).toBe(Math.max(10, own));
    } finally {
      toolNiceness(0);
    }
  });
});
