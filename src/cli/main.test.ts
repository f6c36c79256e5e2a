// The command line as a user runs it: `node bin/audio-merge.cjs` (dist/ is built by npm test).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeErrors,
  decodePcm,
  dominantFrequency,
  ffprobeJson,
  makeTone,
  tempDir,
} from '../../test/support/audio-fixtures.js';
import { BAD_INPUTS, makeBad } from '../../test/support/bad-inputs.js';
import { MIXED, makeInputs } from '../../test/support/merge-fixtures.js';
import { cliBin, runCli } from '../../test/support/cli-run.js';
import { FALLBACK_NOTICE } from '../engine/index.js';
import { isRunning } from '../../test/support/processes.js';

// util-linux `script` gives a command a terminal; Debian always has it.
const hasScript = existsSync('/usr/bin/script');

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** Children of `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const kids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) kids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return kids;
}

describe('audio-merge on the command line', () => {
  let dir: string;
  let out: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    out = path.join(dir, 'out folder');
    await mkdir(out);
  });
  afterAll(() => cleanup());
  const leftovers = () => readdirSync(out).filter((n) => n.startsWith('.'));

  it('joins compatible MP3s without re-encoding, in the given order, and reports JSON', async () => {
    const list = MIXED.filter((f) => f.copied);
    const inputs = await makeInputs(dir, list);
    const target = path.join(out, 'copied.mp3');
    const r = await runCli(['-o', target, ...[...inputs].reverse(), '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({
      output: target,
      inputs: 3,
      transcoded: [],
      sampleRate: 44100,
      channels: 2,
    });
    expect(report.bytes).toBe(readFileSync(target).length);
    // The output's LAME tag has players skip the first input's encoder delay and the last one's padding.
    expect(Math.abs((await decodePcm(target)).length / 8000 - report.durationSeconds)).toBeLessThan(0.002);
    expect(report.format).toBe('mp3');
    // Each input's title tag where it has one, else its file name.
    expect(report.chapters.map((c: { title: string }) => c.title)).toEqual(['Kay', 'c-vbr', 'a-cbr']);
    expect(await decodeErrors(target)).toBe('');
    const pcm = await decodePcm(target);
    const seg = report.durationSeconds / 3;
    const heard = [0, 1, 2].map(
      (k) => Math.round(dominantFrequency(pcm, k * seg + 0.4, (k + 1) * seg - 0.4) / 10) * 10,
    );
    expect(heard).toEqual([...list].reverse().map((f) => f.frequency));
  });

  it('joins mixed inputs, re-encoding exactly the ones that do not match', async () => {
    const inputs = await makeInputs(dir, MIXED);
    const target = path.join(out, 'mixed.mp3');
    const r = await runCli(['--output=' + target, '--json', '--title', 'Mixed', ...inputs]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.transcoded).toEqual([1, 3, 4, 5, 6, 7, 8, 9, 11]);
    const probe = await ffprobeJson(target);
    expect(probe.format.tags?.title).toBe('Mixed');
    expect(probe.streams[0]).toMatchObject({ codec_name: 'mp3', sample_rate: '44100', channels: 2 });
    // Each input is 2 s of audio; each may gain at most 50 ms (LAME's delay and frame padding).
    const got = Number(probe.format.duration);
    expect(got).toBeGreaterThan(2 * inputs.length - 0.05 * inputs.length);
    expect(got).toBeLessThan(2 * inputs.length + 0.05 * inputs.length);
    expect(await decodeErrors(target)).toBe('');
    expect(leftovers()).toEqual([]);
  });

  for (const name of Object.keys(BAD_INPUTS)) {
    it(`exits 1 for ${name}, naming it, with no output and no temp files`, async () => {
      const good = await makeTone(path.join(dir, 'good.mp3'), { seconds: 1 });
      await makeBad(dir, name);
      const target = path.join(out, `bad-${name}.mp3`);
      const r = await runCli(['-o', target, 'good.mp3', name, 'good.mp3'], { cwd: dir });
      expect(good).toBeTruthy();
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^audio-merge: ${name.replace('.', '\\.')}: \\S.*\\n$`));
      expect(r.stderr.split('\n')).toHaveLength(2);
      expect(existsSync(target)).toBe(false);
      expect(leftovers()).toEqual([]);
    });
  }

  it('takes names with quotes, spaces, &, non-Latin letters and %2F as plain names', async () => {
    const names = [
      'Глава 1 — «Начало».mp3',
      '日本語.wav',
      `it's "quoted" & more.mp3`,
      'a%2Fb.mp3',
      'x:y.flac',
      '-dash.mp3',
      '$(touch pwned).mp3',
    ];
    const src = await makeTone(path.join(dir, 'plain.mp3'), { seconds: 1, frequency: 500 });
    const wav = await makeTone(path.join(dir, 'plain.wav'), { seconds: 1, frequency: 700 });
    const flac = await makeTone(path.join(dir, 'plain.flac'), { seconds: 1, frequency: 900 });
    for (const n of names)
      await copyFile(n.endsWith('.wav') ? wav : n.endsWith('.flac') ? flac : src, path.join(dir, n));
    const target = path.join(out, 'Сборник & «всё» %2F.mp3');
    const r = await runCli(['-o', target, '--json', '--', ...names], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ inputs: names.length, transcoded: [1, 4] });
    expect(existsSync(path.join(dir, 'pwned'))).toBe(false);
    // The title comes from the first input's name.
    expect((await ffprobeJson(target)).format.tags?.title).toBe('Глава 1 — «Начало»');
  });

  it.each([
    [['in.mp3'], /no output/],
    [['-o', 'x.mp3'], /no inputs/],
    [['-o', 'x.mp3', '--loud', 'in.mp3'], /unknown option --loud/],
    [['-o', 'same.mp3', './same.mp3'], /is also an input/],
    [['-o', 'book.wma', 'plain.wav'], /extension \.wma names no format/],
    [['-o', 'book.m4b', '--bitrate', 'lots', 'plain.wav'], /--bitrate must be a whole number/],
  ])('exits 2 with a usage line for %j', async (args, why) => {
    const r = await runCli(args, { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(why);
    expect(r.stderr).toMatch(/usage: audio-merge -o OUT IN1/);
  });

  it('writes the format OUT names (or --format), with chapters and the JSON report', async () => {
    const a = await makeTone(path.join(dir, 'One.wav'), { seconds: 1, frequency: 400 });
    const b = await makeTone(path.join(dir, 'Two.mp3'), { seconds: 1.5, frequency: 800 });
    const target = path.join(out, 'book.m4b');
    const r = await runCli(['-o', target, '--json', '--artist', 'Someone', a, b]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ output: target, format: 'm4b', inputs: 2, transcoded: [0, 1] });
    expect(report.chapters.map((c: { title: string }) => c.title)).toEqual(['One', 'Two']);
    expect(report.chapters[0]).toEqual({ title: 'One', start: 0, end: report.chapters[1].start });
    expect(report.chapters[1].end).toBe(report.durationSeconds);
    const probe = await ffprobeJson(target);
    expect(probe.streams[0].codec_name).toBe('aac');
    expect(probe.format.tags?.artist).toBe('Someone');
    const forced = path.join(out, 'book.audio');
    const f = await runCli(['-o', forced, '--format', 'opus', '--no-chapters', '--json', a]);
    expect(f.code).toBe(0);
    expect(JSON.parse(f.stdout)).toMatchObject({ format: 'opus', chapters: [] });
    expect((await ffprobeJson(forced)).streams[0].codec_name).toBe('opus');
  });

  it('documents itself with --help', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const w of ['--json', '--title', '--quiet', '--output', 'Exit status'])
      expect(r.stdout).toContain(w);
  });

  it.skipIf(!hasScript)(
    'draws no progress when stderr is not a terminal, and a bar ending at 100% when it is',
    async () => {
      const a = await makeTone(path.join(dir, 'p1.wav'), { seconds: 3 });
      // Piped: no bar, only the closing line.
      const piped = await runCli(['-o', path.join(out, 'p-pipe.mp3'), a]);
      expect(piped).toEqual({
        code: 0,
        stdout: '',
        stderr: `audio-merge: wrote ${path.join(out, 'p-pipe.mp3')}: 0:03, 49 KB, 1 chapter\n`,
      });
      // `script` gives the command a terminal; its output is what the terminal showed.
      const shown = await new Promise<string>((resolve) => {
        const cmd = [process.execPath, cliBin, '-o', path.join(out, 'p-tty.mp3'), a]
          .map((s) => `'${s.replace(/'/g, `'\\''`)}'`)
          .join(' ');
        const child = spawn('script', ['-qec', cmd, '/dev/null'], { stdio: ['ignore', 'pipe', 'inherit'] });
        let text = '';
        child.stdout.on('data', (c) => (text += c));
        child.on('close', () => resolve(text));
      });
      const percents = [...shown.matchAll(/(\d+)%/g)].map((m) => Number(m[1]));
      expect(percents.at(-1)).toBe(100);
      expect(percents.every((p, i) => i === 0 || p >= percents[i - 1])).toBe(true);
      const withQuiet = await runCli(['-q', '-o', path.join(out, 'p-q.mp3'), a]);
      expect(withQuiet.stderr).toBe('');
    },
  );

  it.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)(
    'stops cleanly on %s mid-transcode: no output, no temp files, no ffmpeg left',
    async (sig, exitCode) => {
      const long = path.join(dir, 'long.wav');
      if (!existsSync(long)) await makeTone(long, { seconds: 120, sampleRate: 96000 });
      const target = path.join(out, `${sig}.mp3`);
      const kids: number[] = [];
      let poll: NodeJS.Timeout | undefined;
      const r = await runCli(['-o', target, long, long], {
        whileRunning: (pid) => {
          poll = setInterval(() => {
            const ffmpegs = childrenOf(pid).filter((k) => cmdline(k).includes('libmp3lame'));
            if (ffmpegs.length > 0) {
              clearInterval(poll);
              kids.push(...ffmpegs);
              process.kill(pid, sig);
            }
          }, 20);
        },
      });
      clearInterval(poll);
      expect(kids.length).toBeGreaterThan(0);
      expect(r.code).toBe(exitCode);
      expect(r.stderr).toMatch(/cancelled/);
      expect(existsSync(target)).toBe(false);
      expect(leftovers()).toEqual([]);
      expect(kids.filter(isRunning)).toEqual([]);
    },
  );

  it('reads a folder as its audio files in natural order, skipping other and hidden files', async () => {
    const folder = path.join(dir, 'book folder');
    await mkdir(folder);
    for (const [name, frequency] of [
      ['10.wav', 900],
      ['2.wav', 500],
      ['1.wav', 300],
      ['.hidden.wav', 700],
    ] as const)
      await makeTone(path.join(folder, name), { seconds: 1, frequency });
    await writeFile(path.join(folder, 'cover.jpg'), Buffer.alloc(100, 1));
    await writeFile(path.join(folder, 'notes.txt'), 'not audio');
    await mkdir(path.join(folder, 'extras'));
    const target = path.join(folder, 'book.mp3');
    for (let run = 0; run < 2; run++) {
      // Run again: the output now in the folder is not one of its inputs.
      const r = await runCli(['-o', target, '--json', '--chapter-titles', 'files', folder]);
      expect(r.code).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report.inputs).toBe(3);
      expect(report.chapters.map((c: { title: string }) => c.title)).toEqual(['1', '2', '10']);
    }
    const pcm = await decodePcm(target);
    expect(
      [0.5, 1.5, 2.5].map((t) => Math.round(dominantFrequency(pcm, t - 0.3, t + 0.3) / 100) * 100),
    ).toEqual([300, 500, 900]);
  });

  it('refuses a folder without audio files, naming it (exit 1)', async () => {
    const empty = path.join(dir, 'no audio');
    await mkdir(empty);
    await writeFile(path.join(empty, 'readme.txt'), 'nothing to hear');
    const target = path.join(out, 'none.mp3');
    const r = await runCli(['-o', target, empty]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `audio-merge: ${empty}: a folder with no audio files (mp3, mp2, wav, flac, ogg, oga, opus, m4a, ...)\n`,
    );
    expect(existsSync(target)).toBe(false);
  });

  it('-n / --no-clobber: an existing OUT is left as it was, exit 1; a new one is written', async () => {
    const wav = await makeTone(path.join(dir, 'nc.wav'), { seconds: 1 });
    const target = path.join(out, 'kept.mp3');
    await writeFile(target, 'already here');
    for (const flag of ['-n', '--no-clobber']) {
      const r = await runCli([flag, '-o', target, wav]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`audio-merge: ${target} exists; not overwritten (--no-clobber)\n`);
      expect(readFileSync(target, 'utf8')).toBe('already here');
    }
    const fresh = path.join(out, 'fresh.mp3');
    expect((await runCli(['-n', '-o', fresh, wav])).code).toBe(0);
    expect(await decodeErrors(fresh)).toBe('');
    expect(leftovers()).toEqual([]);
  });

  it('on the npm fallback alone, says so in one line with how to get a current ffmpeg, and merges', async () => {
    const noTools = path.join(dir, 'empty-path');
    await mkdir(noTools, { recursive: true });
    const { FFMPEG_PATH: _, FFPROBE_PATH: __, ...env } = process.env;
    const wav = await makeTone(path.join(dir, 'fallback.wav'), { seconds: 1 });
    const target = path.join(out, 'fallback.mp3');
    const r = await runCli(['-o', target, wav, wav], { env: { ...env, PATH: noTools } });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      `audio-merge: ${FALLBACK_NOTICE}`,
      expect.stringMatching(/^audio-merge: wrote .*fallback\.mp3: 0:02, \d+ KB, 2 chapters$/),
    ]);
    expect(FALLBACK_NOTICE).toMatch(/apt install ffmpeg.*brew install ffmpeg.*https:\/\/ffmpeg\.org/);
    expect(await decodeErrors(target)).toBe('');
  });

  it('says clearly when ffprobe is unusable', async () => {
    const fake = path.join(dir, 'broken-ffprobe');
    await writeFile(fake, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const wav = await makeTone(path.join(dir, 'tool.wav'), { seconds: 1 });
    const target = path.join(out, 'tool.mp3');
    const r = await runCli(['-o', target, wav], {
      env: { ...process.env, FFMPEG_PATH: '/nonexistent/ffmpeg', FFPROBE_PATH: fake },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/broken-ffprobe is not a working ffprobe/);
    expect(existsSync(target)).toBe(false);
  });
});
