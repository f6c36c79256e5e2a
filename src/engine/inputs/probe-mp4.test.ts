// AAC in MP4 probed from its index, without ffprobe: what it says must be what ffprobe says of the
// same file (the merge plans from it), and a file it cannot read fully is left to ffprobe.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnRunner, type Runner } from '../ffmpeg/runner.js';
import { probeInput } from './probe.js';
import { makeChaptered, makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { makeImage, withPicture } from '../../../test/support/pictures.js';
import { tools } from '../../../test/support/engine-kit.js';

const exec = promisify(execFile);

/** A runner that counts the processes a probe starts. */
function counting() {
  const started: string[] = [];
  const runner: Runner = (req) => {
    started.push(path.basename(req.bin));
    return spawnRunner(req);
  };
  return { runner, started };
}

/** What ffprobe says of a file, in the fields a merge plans from. */
async function ffprobeSays(file: string) {
  const { stdout } = await exec(tools.ffprobe, [
    ...['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-show_chapters', file],
  ]);
  const json = JSON.parse(stdout) as {
    format: { duration?: string; tags?: Record<string, string> };
    streams: Array<{
      codec_type: string;
      sample_rate?: string;
      channels?: number;
      duration?: string;
      disposition?: { attached_pic?: number };
    }>;
    chapters?: Array<{ start_time: string; tags?: { title?: string } }>;
  };
  const audio = json.streams.find((s) => s.codec_type === 'audio')!;
  const tags = Object.fromEntries(
    Object.entries(json.format.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
  );
  return {
    sampleRate: Number(audio.sample_rate),
    channels: Number(audio.channels),
    duration: Number(audio.duration ?? json.format.duration),
    tags,
    hasCover: json.streams.some((s) => s.disposition?.attached_pic === 1),
    chapters: (json.chapters ?? []).map((c) => ({ start: Number(c.start_time), title: c.tags?.title ?? '' })),
  };
}

/** The tags a merge reads from its inputs (details and chapter titles), as ffprobe names them. */
const USED = [
  'title',
  'artist',
  'album_artist',
  'album',
  'composer',
  'genre',
  'date',
  'description',
  'comment',
  'track',
];
const used = (tags: Record<string, string>) =>
  Object.fromEntries(USED.filter((k) => k in tags).map((k) => [k, tags[k]]));

/** The same bytes with every tref box made a free box: chapters then come from chpl alone. */
async function withoutChapterTrack(file: string, out: string): Promise<string> {
  const bytes = await readFile(file);
  for (let at = bytes.indexOf('tref'); at >= 0; at = bytes.indexOf('tref', at + 4))
    bytes.write('free', at, 'latin1');
  await writeFile(out, bytes);
  return out;
}

describe('AAC in MP4 probed from its index', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  const tagArgs = [
    ...[
      '-metadata',
      'title=Chäpter “One”',
      '-metadata',
      'artist=Ada Writer',
      '-metadata',
      'album_artist=Ada W.',
    ],
    ...[
      '-metadata',
      'album=The Harbour',
      '-metadata',
      'composer=Noel Reader',
      '-metadata',
      'genre=Audiobook',
    ],
    ...['-metadata', 'date=2024', '-metadata', 'comment=one\ntwo', '-metadata', 'description=A book'],
    ...['-metadata', 'track=3/12'],
  ];

  it('says what ffprobe says of tags, rate, channels and length, and starts no process', async () => {
    const cases = [
      await makeTone(path.join(dir, 'tagged.m4a'), { seconds: 3, extraArgs: tagArgs }),
      await makeTone(path.join(dir, 'mono.m4a'), { seconds: 2.5, sampleRate: 22050, channels: 1 }),
      await makeTone(path.join(dir, 'book.m4b'), {
        seconds: 2,
        sampleRate: 48000,
        extraArgs: ['-f', 'ipod'],
      }),
    ];
    for (const file of cases) {
      const { runner, started } = counting();
      const probed = await probeInput(file, { tools, runner, headDecode: false });
      const said = await ffprobeSays(file);
      expect(started, file).toEqual([]);
      expect(probed.result, file).toMatchObject({
        format: 'm4a',
        codec: 'aac',
        sampleRate: said.sampleRate,
        channels: said.channels,
      });
      // ffprobe prints six decimals: the length in samples is exact here, so within that rounding.
      expect(Math.abs(probed.result.durationSeconds - said.duration), file).toBeLessThan(1e-6);
      expect(used(probed.result.tags), file).toEqual(used(said.tags));
      expect(probed.mp4?.audioSamples, file).toBe(Math.round(said.duration * said.sampleRate));
      expect(probed.hasCover, file).toBe(false);
      expect(probed.chapters, file).toEqual([]);
    }
  });

  it('sees a cover and Nero chapters as ffprobe does', async () => {
    const plain = await makeTone(path.join(dir, 'plain.m4a'), { seconds: 2 });
    const image = path.join(dir, 'cover.png');
    await makeImage(image);
    const covered = await withPicture(plain, image, path.join(dir, 'covered.m4a'));
    const chaptered = await makeChaptered(path.join(dir, 'chaptered-track.m4b'), [
      ['Opening', 0],
      ['Dünen', 1.5],
      ['The End', 3],
    ]);
    const chpl = await withoutChapterTrack(chaptered, path.join(dir, 'chaptered-chpl.m4b'));
    for (const file of [covered, chpl]) {
      const { runner, started } = counting();
      const probed = await probeInput(file, { tools, runner, headDecode: false });
      const said = await ffprobeSays(file);
      expect(started, file).toEqual([]);
      expect(probed.hasCover, file).toBe(said.hasCover);
      expect(
        probed.chapters?.map((c) => c.title),
        file,
      ).toEqual(said.chapters.map((c) => c.title));
      const starts = probed.chapters?.map((c) => c.start) ?? [];
      said.chapters.forEach((c, i) => expect(Math.abs(starts[i] - c.start), file).toBeLessThan(1e-6));
    }
    // Neither case is empty: ffprobe sees the cover and the three chapters.
    expect((await ffprobeSays(covered)).hasCover).toBe(true);
    expect((await ffprobeSays(chpl)).chapters).toHaveLength(3);
  });

  it('leaves to ffprobe what ffmpeg reads another way: a QuickTime chapter track', async () => {
    const chaptered = await makeChaptered(path.join(dir, 'qt-chapters.m4b'), [
      ['Opening', 0],
      ['Middle', 2],
    ]);
    const { runner, started } = counting();
    const probed = await probeInput(chaptered, { tools, runner, headDecode: false });
    expect(started).toEqual(['ffprobe']);
    expect(probed.chapters?.map((c) => c.title)).toEqual(['Opening', 'Middle']);
  });

  it('still proves a head decodes when asked to (an upload), with one ffmpeg and no ffprobe', async () => {
    const file = await makeTone(path.join(dir, 'upload.m4a'), { seconds: 2 });
    const { runner, started } = counting();
    const probed = await probeInput(file, { tools, runner });
    expect(started.map((b) => b.replace(/\.exe$/, ''))).toEqual([path.basename(tools.ffmpeg)]);
    expect(probed.result.codec).toBe('aac');
  });
});
