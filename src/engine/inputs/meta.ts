// The output's tags and cover: given ones win; else the first input that has each (the title: the
// album the inputs share, else the first title). The cover is read (given) or extracted (embedded)
// once, and must be a JPEG or PNG within the limits (cover.ts): a given one outside them is
// refused, an embedded one left out.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { AbortError, InputError } from '../errors.js';
import { checkCover, COVER_LIMITS, readAtMost, type Cover } from './cover.js';
import { fileArg, spawnRunner, type Runner, QUIET_WRITE } from '../ffmpeg/runner.js';
import { fsReason } from '../io/fs-reason.js';
import type { MergeOptions, Tools } from '../types.js';
import { fileTitle } from '../plan/chapters.js';
import { detailsOfTags, inheritedDetails, tagsFor, type WrittenTags } from '../plan/tags-plan.js';
import type { OutputFormat } from '../plan/formats.js';
import { DETAIL_NAMES, type Details } from '../../shared/details.js';
import type { Probed } from './probe.js';

export type { Cover } from './cover.js';

export interface OutputMeta {
  /** The details as the output's format holds them, by ffprobe's names (title always). */
  tags: WrittenTags & { title: string };
  cover?: Cover;
}

async function givenCover(file: string, signal?: AbortSignal): Promise<Cover> {
  const data = await readAtMost(file, COVER_LIMITS.bytes, signal).catch((err: unknown) => {
    if (err instanceof AbortError) throw err;
    throw new InputError(file, 'unreadable', `cover cannot be read (${fsReason(err)})`);
  });
  const checked = checkCover(data);
  if (!checked.ok) throw new InputError(file, 'not-image', checked.reason);
  return checked.cover;
}

/** The first embedded picture of `input`, or undefined when ffmpeg cannot get a JPEG or PNG out. */
async function embeddedCover(
  input: string,
  scratch: string,
  tools: Tools,
  runner: Runner,
  signal?: AbortSignal,
): Promise<Cover | undefined> {
  const out = path.join(scratch, 'embedded-cover.img');
  const r = await runner({
    bin: tools.ffmpeg,
    args: [
      ...QUIET_WRITE,
      '-i',
      fileArg(input),
      '-map',
      '0:v:0',
      '-c:v',
      'copy',
      '-frames:v',
      '1',
      '-f',
      'image2',
      fileArg(out),
    ],
    signal,
  });
  if (r.code !== 0) return undefined;
  // A picture no output could carry is left out; the input itself is still merged.
  if (((await stat(out).catch(() => undefined))?.size ?? Infinity) > COVER_LIMITS.bytes) return undefined;
  const data = await readFile(out).catch(() => undefined);
  const checked = data && checkCover(data);
  return checked && checked.ok ? checked.cover : undefined;
}

export interface MetaContext {
  opts: MergeOptions;
  format: OutputFormat;
  probed: Probed[];
  names: string[];
  tools: Tools;
  runner?: Runner;
  signal?: AbortSignal;
  /** Makes (once) the job's temporary folder. */
  scratch: () => Promise<string>;
}

/**
 * The details: given ones win; else the first input that has each (never its description or
 * comment), as one line within a given detail's limit, so what the output says is valid by the same rule.
 */
function resolveDetails(c: MetaContext): Details & { title: string } {
  const inherited = inheritedDetails(c.probed.map((p) => detailsOfTags(p.result.tags)));
  const details: Details = {};
  for (const name of DETAIL_NAMES) {
    const v = c.opts[name] ?? inherited[name];
    if (v) details[name] = v;
  }
  // The shared album or the first input's title (the book's opening track), else the first file's name.
  return { ...details, title: c.opts.title || inherited.title || fileTitle(c.names[0]) };
}

export async function resolveMeta(c: MetaContext): Promise<OutputMeta> {
  const details = resolveDetails(c);
  const tags: OutputMeta['tags'] = {
    ...tagsFor(c.format, details),
    title: details.title.trim() || fileTitle(c.names[0]),
  };
  if (c.opts.track) tags.track = `${c.opts.track.number}/${c.opts.track.of}`;
  let cover: Cover | undefined;
  if (c.opts.cover) cover = await givenCover(c.opts.cover, c.signal);
  else {
    const i = c.probed.findIndex((p) => p.hasCover);
    if (i >= 0)
      cover = await embeddedCover(
        c.probed[i].result.path,
        await c.scratch(),
        c.tools,
        c.runner ?? spawnRunner,
        c.signal,
      );
  }
  return { tags, cover };
}
