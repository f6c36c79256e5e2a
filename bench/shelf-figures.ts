// Figures at the size of a whole book: 100 AAC files of 10 minutes (16.7 hours) copied into one M4B,
// against ffmpeg's concat demuxer copying the same packets. Probing is what grows with the count:
// a process per input once cost 4.5x ffmpeg here (docs/decisions/0049-mp4-probed-from-its-index.md).
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Corpus } from './corpus.js';
import { againstConcatCopy, CONCAT_COPY, ffmpeg } from './contenders.js';
import { duel, type Progress } from './race.js';
import type { Figure } from './report.js';

const FILES = 100;
const MINUTES = 10;

async function exists(f: string): Promise<boolean> {
  return (await stat(f).catch(() => undefined))?.size !== undefined;
}

/** One 10-minute AAC encode, then 100 tagged copies of its packets (each its own title and track). */
async function aacShelf(dir: string, log: Progress): Promise<string[]> {
  const base = path.join(dir, 'shelf-base.m4a');
  if (!(await exists(base))) {
    log(`corpus: ${MINUTES} minutes of AAC`);
    const voice = `sine=frequency=220:sample_rate=44100:duration=${MINUTES * 60}`;
    await ffmpeg(['-f', 'lavfi', '-i', voice, '-ac', '2', '-c:a', 'aac', '-b:a', '64k', base]);
  }
  const files = Array.from({ length: FILES }, (_, i) =>
    path.join(dir, `shelf-${String(i + 1).padStart(3, '0')}.m4a`),
  );
  for (const [i, f] of files.entries()) {
    if (await exists(f)) continue;
    log(`corpus: shelf file ${i + 1} of ${FILES}`);
    const tags = ['-metadata', `title=Part ${i + 1}`, '-metadata', `track=${i + 1}/${FILES}`];
    await ffmpeg(['-i', base, '-c', 'copy', ...tags, f]);
  }
  return files;
}

export async function shelfFigures(
  c: Corpus,
  work: string,
  rounds: number,
  progress: Progress,
): Promise<Figure[]> {
  const files = await aacShelf(c.dir, progress);
  const out = (n: string) => path.join(work, n);
  const copy = {
    step: `${FILES} AAC files of ${MINUTES} minutes copied into an M4B`,
    contenders: againstConcatCopy(files, out, 'shelf.m4b'),
    rounds: Math.max(1, Math.min(rounds, 3)),
    figure: {
      name: `${FILES} AAC files, ${((FILES * MINUTES) / 60).toFixed(1)} h, copied into an M4B with a chapter each`,
      ...CONCAT_COPY,
      target: 0.3,
    },
  };
  return [await duel(progress, copy)];
}
