// Figures for trimming: 60 s off each end of each of 12 five-minute MP3s, joined, against the
// untrimmed lossless join and against ffmpeg cutting with -ss/-to and re-encoding; the same trims
// of AAC files joined to M4B against the untrimmed M4B join; and the
// waveform peaks: what making them at upload adds to a 1-hour MP3's tus upload, and a peaks request.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createApp } from '../src/server/http/app.js';
import type { Corpus } from './corpus.js';
import { ffmpegCommand, ours } from './contenders.js';
import { alternate, stats, type Command } from './measure.js';
import { duel, type FigureGroup, type Race } from './race.js';
import type { Figure } from './report.js';
import { tusCreation } from './server-calls.js';
import { headers, openSession, type BrowserSession } from './server-process.js';

/** ffmpeg's way: each input cut with -ss/-to, decoded, joined with concat, one libmp3lame encode. */
function ffmpegCut(label: string, inputs: string[], out: string, from: number, to: number): Command {
  const cuts = inputs.flatMap((f) => ['-ss', String(from), '-to', String(to), '-i', f]);
  const join = `${inputs.map((_, i) => `[${i}:a]`).join('')}concat=n=${inputs.length}:v=0:a=1[a]`;
  const encode = ['-map', '[a]', '-c:a', 'libmp3lame', '-b:a', '128k'];
  return ffmpegCommand(label, [...cuts, '-filter_complex', join, ...encode], out, true);
}

/**
 * 60 s off each end of each of `inputs`, joined to `ext`, against the same join untrimmed: the
 * contenders `trimmed` and `untrimmed` (for M4B, `trimmed m4b` and `untrimmed m4b`).
 */
function trimRace(
  step: string,
  inputs: string[],
  out: (n: string) => string,
  ext: string,
  rounds: number,
): Race {
  const trims = inputs.flatMap((_, i) => ['--trim', `${i + 1}=60-240`]);
  const tag = ext === 'mp3' ? '' : ` ${ext}`;
  return {
    step,
    contenders: [
      ours(`trimmed${tag}`, inputs, out(`ours-trim.${ext}`), trims),
      ours(`untrimmed${tag}`, inputs, out(`ours-plain.${ext}`)),
    ],
    rounds,
  };
}

export const trimFigures: FigureGroup = async (c, work, rounds, progress) => {
  const out = (n: string) => path.join(work, n);
  const joins = trimRace('trimmed join, 12 five-minute MP3s', c.hourMp3, out, 'mp3', rounds);
  const untrimmed = await duel(progress, {
    ...joins,
    figure: {
      name: '60 s off each end of 12 five-minute MP3s, joined (copied)',
      peerName: 'the same join untrimmed (lossless)',
      target: 1.2,
    },
  });
  const peer = await alternate(
    [ffmpegCut('ffmpeg -ss/-to', c.hourMp3, out('ffmpeg-trim.mp3'), 60, 240)],
    // The peer re-encodes 36 minutes a run: fewer rounds.
    Math.max(1, Math.min(rounds, 2)),
    progress,
    false,
  );
  const figures: Figure[] = [
    untrimmed,
    {
      name: 'the same trimmed join',
      ours: untrimmed.ours,
      peerName: 'ffmpeg -ss/-to per input, concat, libmp3lame',
      peer: peer.get('ffmpeg -ss/-to')!.time,
      target: 0.1,
    },
  ];
  figures.push(await m4bFigure(c, work, rounds, progress));
  figures.push(...(await peaksFigures(c, rounds, progress)));
  return figures;
};

/** The same trims of 12 five-minute AAC files joined to M4B (copied, a stretch re-encoded at each cut) against the untrimmed join. */
function m4bFigure(c: Corpus, work: string, rounds: number, progress: (m: string) => void): Promise<Figure> {
  const out = (n: string) => path.join(work, n);
  const step = 'trimmed join, 12 five-minute AAC files to M4B';
  const figure = {
    name: '60 s off each end of 12 five-minute AAC files, joined to M4B (copied)',
    peerName: 'the same M4B join untrimmed (copied)',
    note: 'no target set: reported next to the MP3 figure',
  };
  return duel(progress, { ...trimRace(step, c.hourM4a, out, 'm4b', rounds), figure });
}

/** The server in this process, as the tests build it, on a free port: with or without peaks at upload. */
async function inProcessServer(peaksAtUpload: boolean) {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'audio-merge-bench-peaks-'));
  const built = await createApp(
    {
      port: 0,
      socketPort: 0,
      realtime: false,
      logLevel: 'silent',
      sweepIntervalMs: 0,
      dataDir: dir,
      maxFileBytes: 2000 * 1024 * 1024,
      maxFiles: 1000,
    },
    { peaksAtUpload },
  );
  await built.app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
  return {
    base,
    async stop() {
      await built.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const exec = promisify(execFile);
const secondsSince = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e9;

/**
 * One tus upload of `file` with curl's PATCH, timed by curl itself (the server runs in this
 * process, so this process's clock would also count the server's work after its answer), then a
 * peaks request on the answer. Seconds: the creation and the PATCH; and, from the start, the peaks.
 */
async function uploadThenPeaks(base: string, s: BrowserSession, file: string) {
  const t = process.hrtime.bigint();
  const created = await fetch(`${base}/app/merge/tus/`, {
    method: 'POST',
    headers: {
      ...headers(s, false),
      'tus-resumable': '1.0.0',
      ...tusCreation(s, file),
    },
  });
  const location = created.headers.get('location');
  if (created.status !== 201 || !location) throw new Error(`tus creation answered ${created.status}`);
  const creation = secondsSince(t);
  const { stdout } = await exec('curl', [
    ...['-s', '-o', '/dev/null', '-w', '%{http_code} %{time_total}', '-X', 'PATCH', '-T', file],
    ...['-H', 'tus-resumable: 1.0.0', '-H', 'upload-offset: 0'],
    ...['-H', 'content-type: application/offset+octet-stream', '-H', 'expect:'],
    ...['-H', `cookie: ${s.cookie}`, '-H', `x-csrf-token: ${s.csrf}`],
    new URL(location, base).href,
  ]);
  const [code, seconds] = stdout.split(' ');
  if (code !== '200') throw new Error(`tus upload answered ${code}`);
  const items = await fetch(`${base}/app/merge/getDataJson`, {
    method: 'POST',
    headers: headers(s),
    body: JSON.stringify({ appid: s.appid }),
  });
  const last = (JSON.parse(await items.text()) as Array<{ id: string }>).at(-1)!;
  const res = await fetch(`${base}/app/merge/peaks/${last.id}?bins=800`, { headers: headers(s, false) });
  if (!res.ok) throw new Error(`peaks answered ${res.status}`);
  await res.arrayBuffer();
  return { answered: creation + Number(seconds), ready: secondsSince(t), id: last.id };
}

/** 200 peaks requests of `bins` in a row (after 20 unmeasured), milliseconds each. */
async function peaksRequests(base: string, s: BrowserSession, id: string, bins: number) {
  const url = `${base}/app/merge/peaks/${id}?bins=${bins}`;
  const times: number[] = [];
  for (let i = 0; i < 220; i++) {
    const t = process.hrtime.bigint();
    const res = await fetch(url, { headers: headers(s, false) });
    if (!res.ok) throw new Error(`peaks answered ${res.status}`);
    await res.arrayBuffer();
    if (i >= 20) times.push(secondsSince(t) * 1000);
  }
  return stats(times);
}

/**
 * A 1-hour MP3 uploaded with tus (the widget's way), to a server that makes its waveform at upload
 * and to one that makes it on the first request, alternately; after each, a peaks request, so
 * every round starts with the machine idle. Then peaks requests once the waveform is stored.
 */
async function peaksFigures(c: Corpus, rounds: number, progress: (m: string) => void): Promise<Figure[]> {
  const hour = c.threeHours[0];
  const withPeaks = await inProcessServer(true);
  const without = await inProcessServer(false);
  try {
    const s = await openSession(withPeaks.base);
    const s0 = await openSession(without.base);
    const answered: number[] = [];
    const ready: number[] = [];
    const plain: number[] = [];
    let id = '';
    for (let r = 0; r < rounds; r++) {
      progress(`1-hour MP3 tus upload (${r + 1}/${rounds})`);
      const a = await uploadThenPeaks(withPeaks.base, s, hour);
      answered.push(a.answered);
      ready.push(a.ready);
      id = a.id;
      plain.push((await uploadThenPeaks(without.base, s0, hour)).answered);
    }
    progress('peaks requests');
    const small = await peaksRequests(withPeaks.base, s, id, 800);
    const large = await peaksRequests(withPeaks.base, s, id, 4000);
    return [
      {
        name: '1-hour MP3 tus upload, answered, its waveform made at upload',
        ours: stats(answered),
        peerName: 'the same upload, its waveform left to the first request',
        peer: stats(plain),
        target: 1.3,
        note: 'the answer does not wait for the decode, which starts once the file is stored',
      },
      {
        name: 'the same upload until its peaks are served (request sent on the answer)',
        ours: stats(ready),
        peerName: 'the upload answered, without peaks',
        peer: stats(plain),
        note: 'the waveform is ready this long after the upload starts',
      },
      {
        name: 'a peaks request (800 bins), 200 in a row',
        ours: small,
        peerName: '',
        unit: 'ms',
        extraTarget: { label: 'median ≤ 5 ms', ok: small.median <= 5 },
      },
      {
        name: 'a peaks request (4000 bins), 200 in a row',
        ours: large,
        peerName: '',
        unit: 'ms',
        extraTarget: { label: 'median ≤ 5 ms', ok: large.median <= 5 },
      },
    ];
  } finally {
    await withPeaks.stop();
    await without.stop();
  }
}
