// Figures for trimming: 60 s off each end of each of 12 five-minute MP3s, joined, against the
// untrimmed lossless join and against ffmpeg cutting with -ss/-to and re-encoding; the same trims
// of AAC files joined to M4B against the untrimmed M4B join; and the
// waveform peaks: what their one decode adds to a 1-hour MP3's upload, and a peaks request.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodePeaks } from '../src/engine/inputs/peaks.js';
import { resolveToolPaths } from '../src/engine/ffmpeg/tools.js';
import type { Corpus } from './corpus.js';
import { alternate, stats, type Command } from './measure.js';
import type { Figure } from './report.js';
import { curlUpload } from './server-figures.js';
import { headers, openSession, startServer } from './server-process.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tools = resolveToolPaths();

function ours(label: string, inputs: string[], out: string, options: string[]): Command {
  return {
    label,
    cmd: process.execPath,
    args: [path.join(root, 'bin', 'audio-merge.cjs'), '--quiet', '-o', out, ...options, ...inputs],
    before: () => rmSync(out, { force: true }),
  };
}

/** ffmpeg's way: each input cut with -ss/-to, decoded, joined with concat, one libmp3lame encode. */
function ffmpegCut(label: string, inputs: string[], out: string, from: number, to: number): Command {
  return {
    label,
    cmd: tools.ffmpeg,
    args: [
      ...['-hide_banner', '-v', 'error', '-y'],
      ...inputs.flatMap((f) => ['-ss', String(from), '-to', String(to), '-i', f]),
      '-filter_complex',
      `${inputs.map((_, i) => `[${i}:a]`).join('')}concat=n=${inputs.length}:v=0:a=1[a]`,
      ...['-map', '[a]', '-c:a', 'libmp3lame', '-b:a', '128k', out],
    ],
    before: () => rmSync(out, { force: true }),
  };
}

export async function trimFigures(
  c: Corpus,
  work: string,
  rounds: number,
  progress: (m: string) => void,
): Promise<Figure[]> {
  const out = (n: string) => path.join(work, n);
  const trims = c.hourMp3.flatMap((_, i) => ['--trim', `${i + 1}=60-240`]);
  progress('trimmed join, 12 five-minute MP3s');
  const joins = await alternate(
    [
      ours('trimmed', c.hourMp3, out('ours-trim.mp3'), trims),
      ours('untrimmed', c.hourMp3, out('ours-plain.mp3'), []),
    ],
    rounds,
    progress,
  );
  const peer = await alternate(
    [ffmpegCut('ffmpeg -ss/-to', c.hourMp3, out('ffmpeg-trim.mp3'), 60, 240)],
    // The peer re-encodes 36 minutes a run: fewer rounds.
    Math.max(1, Math.min(rounds, 2)),
    progress,
    false,
  );
  const trimmed = joins.get('trimmed')!.time;
  const figures: Figure[] = [
    {
      name: '60 s off each end of 12 five-minute MP3s, joined (copied)',
      ours: trimmed,
      peerName: 'the same join untrimmed (lossless)',
      peer: joins.get('untrimmed')!.time,
      target: 1.2,
    },
    {
      name: 'the same trimmed join',
      ours: trimmed,
      peerName: 'ffmpeg -ss/-to per input, concat, libmp3lame',
      peer: peer.get('ffmpeg -ss/-to')!.time,
      target: 0.1,
    },
  ];
  figures.push(await m4bFigure(c, work, rounds, progress));
  figures.push(...(await peaksFigures(c, rounds, progress)));
  return figures;
}

/** The same trims of 12 five-minute AAC files joined to M4B (copied, a stretch re-encoded at each cut) against the untrimmed join. */
async function m4bFigure(
  c: Corpus,
  work: string,
  rounds: number,
  progress: (m: string) => void,
): Promise<Figure> {
  const out = (n: string) => path.join(work, n);
  const trims = c.hourM4a.flatMap((_, i) => ['--trim', `${i + 1}=60-240`]);
  progress('trimmed join, 12 five-minute AAC files to M4B');
  const joins = await alternate(
    [
      ours('trimmed m4b', c.hourM4a, out('ours-trim.m4b'), trims),
      ours('untrimmed m4b', c.hourM4a, out('ours-plain.m4b'), []),
    ],
    rounds,
    progress,
  );
  return {
    name: '60 s off each end of 12 five-minute AAC files, joined to M4B (copied)',
    ours: joins.get('trimmed m4b')!.time,
    peerName: 'the same M4B join untrimmed (copied)',
    peer: joins.get('untrimmed m4b')!.time,
    note: 'no target set: reported next to the MP3 figure',
  };
}

/**
 * A 1-hour MP3's upload: the server answers once the file is stored and measured (an MP3 by its
 * frames); the first peaks request, right after the answer, makes its waveform (one decode). Then
 * peaks requests once the waveform is stored.
 */
async function peaksFigures(c: Corpus, rounds: number, progress: (m: string) => void): Promise<Figure[]> {
  const hour = c.threeHours[0];
  const server = await startServer({ MAX_FILE_MB: '2000' });
  try {
    const s = await openSession(server.base);
    const uploads: number[] = [];
    const ready: number[] = [];
    const decodes: number[] = [];
    for (let r = 0; r < rounds; r++) {
      progress(`1-hour MP3 upload (${r + 1}/${rounds})`);
      uploads.push(await curlUpload(server.base, s, hour));
      const items = await fetch(`${server.base}/app/merge/getDataJson`, {
        method: 'POST',
        headers: headers(s),
        body: JSON.stringify({ appid: s.appid }),
      });
      const last = (JSON.parse(await items.text()) as Array<{ id: string }>).at(-1)!;
      const t = process.hrtime.bigint();
      const res = await fetch(`${server.base}/app/merge/peaks/${last.id}?bins=800`, {
        headers: headers(s, false),
      });
      if (!res.ok) throw new Error(`peaks answered ${res.status}`);
      await res.arrayBuffer();
      ready.push(Number(process.hrtime.bigint() - t) / 1e9);
      progress(`the peaks' decode alone (${r + 1}/${rounds})`);
      const d = process.hrtime.bigint();
      await decodePeaks(hour, { channels: 2, sampleRate: 44100 });
      decodes.push(Number(process.hrtime.bigint() - d) / 1e9);
    }
    const upload = stats(uploads);
    const inline = stats(uploads.map((u, i) => u + decodes[i]));

    progress('peaks requests');
    const list = await fetch(`${server.base}/app/merge/getDataJson`, {
      method: 'POST',
      headers: headers(s),
      body: JSON.stringify({ appid: s.appid }),
    });
    const [first] = JSON.parse(await list.text()) as Array<{ id: string }>;
    const url = `${server.base}/app/merge/peaks/${first.id}?bins=800`;
    const times: number[] = [];
    for (let i = 0; i < 220; i++) {
      const t = process.hrtime.bigint();
      const res = await fetch(url, { headers: headers(s, false) });
      if (!res.ok) throw new Error(`peaks answered ${res.status}`);
      await res.arrayBuffer();
      if (i >= 20) times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const requests = stats(times);
    return [
      {
        name: '1-hour MP3 upload over loopback, answered (its waveform made on first request)',
        ours: upload,
        peerName: 'the same upload with the peaks decode inside it (timed alone, added)',
        peer: inline,
        note: 'the answer does not wait for the waveform: an MP3 is measured by its frames',
      },
      {
        name: 'the first peaks request for that upload',
        ours: stats(ready),
        peerName: '',
        note: 'made by its one decode, then kept',
      },
      {
        name: 'a peaks request (800 bins), 200 in a row',
        ours: requests,
        peerName: '',
        unit: 'ms',
        extraTarget: { label: 'median ≤ 5 ms', ok: requests.median <= 5 },
      },
    ];
  } finally {
    await server.stop();
  }
}
