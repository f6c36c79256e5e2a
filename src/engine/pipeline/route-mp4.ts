// M4B/M4A output: AAC inputs that match are copied packet for packet; the others are encoded to
// AAC in parallel, one per core, and every part's packets are joined in one MP4 without another
// encode (a gap is packets of encoded silence between them). Chapter starts are counted packets
// plus each part's own priming.
import path from 'node:path';
import { InputError } from '../errors.js';
import { transcodeToAac } from '../ffmpeg/transcode.js';
import { Mp4Error, readMp4Audio, type Mp4Audio } from '../mp4/read.js';
import { mp4PartStarts, sameStream, writeMp4, type Mp4Part } from '../mp4/write.js';
import { outputError } from './merge-output.js';
import type { Chapter } from './chapters.js';
import { partJob, perInput, type RouteContext, type RouteResult } from './route.js';
import { gapParts } from './route-mp4-sound.js';

async function encodePart(ctx: RouteContext, i: number): Promise<Mp4Part> {
  const file = path.join(await ctx.scratch(), `${i}.m4a`);
  const { plan } = ctx;
  await transcodeToAac(partJob(ctx, i, file, { sampleRate: plan.sampleRate, channels: plan.channels, bitRateKbps: plan.bitRateKbps! }));
  try {
    return { file, audio: readMp4Audio(file) };
  } catch (err) {
    if (err instanceof Mp4Error) throw new InputError(ctx.names[i], `re-encoded audio is unreadable (${err.message})`, i, 'reencode-failed');
    throw err;
  }
}

function copiedPart(ctx: RouteContext, i: number): Mp4Part {
  const audio = ctx.probed[i].mp4;
  if (!audio) throw new Error(`internal: no packet index for input ${i}`);
  return { file: ctx.inputs[i], audio };
}

function checkOneStream(ctx: RouteContext, audios: Mp4Audio[], owner: number[]): void {
  // The planner copies only AAC of the output's shape and encodes the rest to it: a mismatch is a bug.
  const bad = audios.findIndex((a) => !sameStream(a, audios[0]));
  if (bad >= 0) throw new Error(`internal: the AAC of ${ctx.names[owner[bad]]} differs from the output's`);
}

export async function mp4Route(ctx: RouteContext): Promise<RouteResult> {
  const { plan } = ctx;
  const made = await perInput(ctx, plan.transcoded, (i) => encodePart(ctx, i));
  const inputParts = ctx.inputs.map((_, i) => made.get(i) ?? copiedPart(ctx, i));
  const { parts, owner } = await gapParts(ctx, inputParts);
  const audios = parts.map((p) => p.audio);
  checkOneStream(ctx, audios, owner);
  const rate = audios[0].sampleRate;
  const { starts, total } = mp4PartStarts(audios);
  const chapters = ctx.chapters(inputParts.map((_, i) => starts[owner.indexOf(i)] / rate), total / rate);
  await writeMp4Output(ctx, parts, chapters, owner);
  return { durationSeconds: total / rate, chapters };
}

/** The MP4 of `parts` at the partial path, with the output's brand, tags and chapters. */
export async function writeMp4Output(ctx: RouteContext, parts: Mp4Part[], chapters: Chapter[], owner = parts.map((_, i) => i)): Promise<void> {
  const { plan, meta } = ctx;
  await writeMp4(parts, ctx.partial, {
    brand: plan.format === 'm4b' ? 'M4B ' : 'M4A ',
    chapters,
    tags: { title: meta.title, artist: meta.artist, album: meta.album, cover: meta.cover },
    signal: ctx.signal,
    onProgress: (done, all) => ctx.tracker.join(done, all),
  }).catch((err: unknown) => {
    if (err instanceof Mp4Error) {
      const k = parts.findIndex((p) => err.message.startsWith(`${p.file}:`));
      if (k >= 0) throw new InputError(ctx.names[owner[k]], err.message.slice(parts[k].file.length + 2), owner[k], 'unreadable');
    }
    if ((err as NodeJS.ErrnoException).syscall === 'write') throw outputError(`cannot write ${ctx.output}`, err);
    throw err;
  });
}
