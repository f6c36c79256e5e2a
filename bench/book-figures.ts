// Figures for the book: a 1-hour lossless MP3 join with every detail, a cover and a chapters file
// against the same join without them; and the loudness limiter on an hour of peaky decoded input
// against ffmpeg's two-pass loudnorm on the same input.
import { copyFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Corpus } from './corpus.js';
import { ffmpeg, ours, twoPassLoudnorm } from './contenders.js';
import { duel } from './race.js';
import type { Figure } from './report.js';

async function exists(f: string): Promise<boolean> {
  return (await stat(f).catch(() => undefined))?.size !== undefined;
}

/**
 * An hour of a quiet voice-like tone with a loud 3 ms burst every 2 s, as 12 FLAC files of 5
 * minutes: its peaks keep a plain gain far from -16 LUFS, so every input takes the limiter.
 */
async function peakyHour(dir: string, log: (m: string) => void): Promise<string[]> {
  const base = path.join(dir, 'peaky-base.flac');
  if (!(await exists(base))) {
    log('corpus: 5 minutes of a peaky quiet tone');
    const expr = '0.05*sin(2*PI*440*t)+0.85*sin(2*PI*1000*t)*lt(mod(t\\,2)\\,0.003)';
    await ffmpeg(['-f', 'lavfi', '-i', `aevalsrc=exprs=${expr}|${expr}:s=44100:d=300`, '-c:a', 'flac', base]);
  }
  const files = Array.from({ length: 12 }, (_, i) =>
    path.join(dir, `peaky-${String(i + 1).padStart(2, '0')}.flac`),
  );
  for (const f of files) if (!(await exists(f))) await copyFile(base, f);
  return files;
}

export async function bookFigures(
  c: Corpus,
  work: string,
  rounds: number,
  progress: (m: string) => void,
  withLimiter = true,
): Promise<Figure[]> {
  const out = (n: string) => path.join(work, n);
  const cover = out('cover.jpg');
  await ffmpeg(['-f', 'lavfi', '-i', 'testsrc=s=1400x1400', '-frames:v', '1', '-q:v', '3', cover]);
  const chapters = out('chapters.txt');
  await writeFile(chapters, c.hourMp3.map((_, i) => `${i * 5}:00 Chapter ${i + 1}`).join('\n'));
  const details = [
    ...['--title', 'The Long Walk', '--artist', 'A. Writer', '--album-artist', 'A. Writer'],
    ...['--album', 'The Long Walk', '--narrator', 'N. Reader', '--genre', 'Audiobook', '--year', '2024'],
    ...['--description', 'A book.\nIn two lines.', '--comment', 'bench', '--cover', cover],
    ...['--chapters', chapters],
  ];

  const book = {
    step: 'details, cover and chapters on a 1-hour MP3 join',
    contenders: [
      ours('with details', c.hourMp3, out('ours-book.mp3'), details),
      ours('plain', c.hourMp3, out('ours-plain.mp3')),
    ],
    // A copied 1-hour join takes a tenth of a second, most of it the process starting: more rounds.
    rounds: Math.max(rounds, 15),
    figure: {
      name: 'details, a 1400 px cover and a chapters file on a 1-hour join of 12 MP3s (copied)',
      peerName: 'the same join without them',
      target: 1.05,
    },
  };
  const figures = [await duel(progress, book)];

  if (!withLimiter) return figures;
  const peaky = await peakyHour(c.dir, progress);
  const loud = {
    step: 'the loudness limiter on an hour of peaky FLAC',
    contenders: [
      ours('audio-merge --loudness (limiter)', peaky, out('ours-limited.mp3'), ['--loudness', '-16']),
      twoPassLoudnorm('ffmpeg two-pass loudnorm', peaky, out('ffmpeg-loud.mp3')),
    ],
    // The peer takes minutes a run: fewer rounds, and no warm-up beyond the corpus just written.
    rounds: Math.max(1, Math.min(rounds, 2)),
    warmUp: false,
    figure: {
      name: 'loudness matching with the true-peak limiter, 1 hour in 12 peaky FLACs, to MP3',
      peerName: 'ffmpeg two-pass loudnorm + libmp3lame, concat copy',
      target: 0.5,
    },
  };
  figures.push(await duel(progress, loud));
  return figures;
}
