import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tools } from '../../../test/support/engine-kit.js';
import { isRunning } from '../../../test/support/processes.js';
import {
  cancelledEncode,
  decodeLeft,
  oneSampleSlip,
  seamSplit,
  sineParts,
  oddlyNamedScratch,
  timelineContext,
  windowErrors,
} from '../../../test/support/sine-timeline.js';
import { AbortError } from '../errors.js';
import type { PcmTarget } from '../ffmpeg/transcode.js';
import { readMp4Audio } from '../mp4/read.js';
import { writeMp4 } from '../mp4/write.js';
import { encodeAacTimeline, feedOf } from './aac-timeline.js';
import { AAC_CODEC, AAC_PRIMING, planChunks } from '../plan/chunks.js';

const RATE = 44100;
const PCM: PcmTarget = { sampleRate: RATE, channels: 2, sampleFormat: 's16le' };

describe('parallel AAC encode of a PCM timeline', () => {
  const scratch = oddlyNamedScratch();

  it('joins three chunk encodes into one stream that decodes to the timeline, with no click at the seams', async () => {
    // 40 s in three part files whose joins fall inside frames: three chunks of about 13 s.
    const { parts, samples } = await sineParts(scratch.dir, RATE, [
      RATE * 13 + 311,
      RATE * 11 + 5,
      RATE * 16 + 17,
    ]);
    const total = samples.length;
    const [encoded] = await encodeAacTimeline(timelineContext(scratch.dir, tools, 'm4a'), [parts], PCM);
    expect(encoded).toHaveLength(3);
    const out = path.join(scratch.dir, 'joined.m4a');
    await writeMp4(encoded, out, { brand: 'M4A ', chapters: [], tags: {} });
    // One frame of priming in front, the edit list ends the audio where the timeline does.
    const audio = readMp4Audio(out);
    expect(audio.priming).toBe(AAC_PRIMING);
    expect(audio.audioSamples).toBe(total);
    expect(audio.sizes.length).toBeLessThanOrEqual(Math.ceil((total + AAC_PRIMING) / 1024) + 1);

    const decoded = await decodeLeft(tools, out);
    const errs = windowErrors(decoded, samples, total - 2048);
    const seams = [1, 2].map((k) => encoded.slice(0, k).reduce((n, p) => n + p.audio.audioSamples, 0));
    const { atSeams, elsewhere } = seamSplit(errs, seams);
    // Aligned with the timeline: a slip of even one sample would stray further in every window.
    expect(elsewhere[Math.floor(elsewhere.length / 2)]).toBeLessThan(oneSampleSlip(RATE) / 2);
    expect(atSeams).toBeLessThanOrEqual(3 * elsewhere[Math.floor(elsewhere.length * 0.99)]);
    // The part files are gone once encoded.
    expect((await readdir(scratch.dir)).filter((f) => f.endsWith('.pcm'))).toEqual([]);
  }, 60_000);

  it('feeds a chunk the byte ranges of the parts it spans, by their names in the scratch folder', () => {
    const parts = [100_000, 100_000, 150_000].map((samples, i) => ({
      file: path.join(scratch.dir, `${i}.pcm`),
      samples,
    }));
    const [first, second] = planChunks(350_000, 2, AAC_CODEC, 1);
    // The seam falls inside the middle part: both chunks read some of it.
    expect([first.feedEnd, second.feedStart].every((s) => s > 100_000 && s < 200_000)).toBe(true);
    expect(feedOf(parts, first, PCM)).toEqual({
      url: `concat:subfile,,start,0,end,400000,,:0.pcm|subfile,,start,0,end,${(first.feedEnd - 100_000) * 4},,:1.pcm`,
      cwd: scratch.dir,
    });
    expect(feedOf(parts, second, PCM).url).toBe(
      `concat:subfile,,start,${(second.feedStart - 100_000) * 4},end,400000,,:1.pcm|subfile,,start,0,end,600000,,:2.pcm`,
    );
  });

  it('stops every encoder when cancelled and says so', async () => {
    const { err, pids } = await cancelledEncode(scratch.dir, tools, 'm4a', (ctx, parts) =>
      encodeAacTimeline(ctx, [parts], PCM),
    );
    expect(err).toBeInstanceOf(AbortError);
    expect(pids.length).toBeGreaterThan(0);
    expect(pids.filter(isRunning)).toEqual([]);
  }, 60_000);
});
