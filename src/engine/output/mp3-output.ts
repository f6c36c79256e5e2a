// What every MP3 output shares, whichever route writes it: the parts the join takes (with their
// delay and padding for the gapless counts), the ID3v2.3 tag in front, and what a failed join throws.
import { InputError } from '../errors.js';
import type { OutputMeta } from '../inputs/meta.js';
import { buildId3v23 } from '../mp3/id3-write.js';
import type { JoinPart } from '../mp3/join.js';
import type { Chapter } from '../plan/chapters.js';
import { outputError } from './output-file.js';
import type { RouteContext } from './route-context.js';

/** LAME's encoder delay: what our own encodes carry, and the best guess for an MP3 without a LAME tag. */
export const LAME_DELAY = 576;

export interface Mp3Part extends JoinPart {
  /** Samples of encoder delay ahead of this part's audio. */
  delay: number;
  /** Samples of padding after it (for the LAME tag, when it is the last part). */
  padding: number;
}

/** The output's ID3v2.3 tag: its details, cover and chapters. */
export function id3Of(meta: OutputMeta, chapters: Chapter[]): Buffer {
  const ms = chapters.map((c) => ({ title: c.title, startMs: c.start * 1000, endMs: c.end * 1000 }));
  const t = meta.tags;
  return buildId3v23({
    title: t.title,
    artist: t.artist,
    albumArtist: t.album_artist,
    album: t.album,
    composer: t.composer,
    genre: t.genre,
    year: t.date,
    description: t.description,
    comment: t.comment,
    track: t.track,
    cover: meta.cover,
    chapters: ms,
  });
}

/** What a failed join throws: the input a part belongs to named, a full disk the output's fault. */
export function joinFailure(ctx: RouteContext, parts: readonly JoinPart[], owner: readonly number[]) {
  return (err: unknown): never => {
    // The join names files by path (a temporary one for a transcoded input); name the input.
    if (err instanceof InputError) {
      const k = parts.findIndex((p) => p.file === err.file);
      if (k >= 0) throw new InputError(ctx.names[owner[k]], err.code, err.reason, owner[k]);
    }
    // A full disk while writing the output is the output's problem, not an input's.
    if ((err as NodeJS.ErrnoException).syscall === 'write')
      throw outputError(`cannot write ${ctx.output}`, err);
    throw err;
  };
}
