import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseFile } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeErrors,
  decodePcm,
  ffprobeJson,
  makeTone,
  tempDir,
} from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { ffprobeChapters } from '../../../test/support/chapter-readers.js';
import { makeMp3WithCover } from '../../../test/support/merge-fixtures.js';
import { makeImage } from '../../../test/support/pictures.js';
import { childrenNamed } from '../../../test/support/processes.js';
import { findOnsets, makeOnsetInput, makeOnsetInputs, ONSET_KINDS } from '../../../test/support/onsets.js';
import { AbortError, InputError } from '../errors.js';
import { fileArg, spawnRunner, type Runner } from '../ffmpeg/runner.js';
import type { OutputFormat } from '../plan/formats.js';
import { mergeFiles } from './merge.js';

const exec = promisify(execFile);

/** The whole file decoded to raw PCM at its own rate and channels. */
async function rawPcm(file: string, fmt: 's16le' | 's32le'): Promise<Buffer> {
  const { stdout } = await exec(tools.ffmpeg, ['-v', 'error', '-i', file, '-f', fmt, '-'], {
    encoding: 'buffer',
    maxBuffer: 256 << 20,
  });
  return stdout as Buffer;
}

/** The file decoded at its own rate: its length in seconds, counted in samples. */
async function decodedSeconds(file: string): Promise<number> {
  const probe = await ffprobeJson(file);
  const rate = Number(probe.streams.find((s) => s.codec_type === 'audio')?.sample_rate);
  const { stdout } = await exec(tools.ffmpeg, ['-v', 'error', '-i', file, '-ac', '1', '-f', 's16le', '-'], {
    encoding: 'buffer',
    maxBuffer: 64 << 20,
  });
  return (stdout as Buffer).length / 2 / rate;
}

async function packetHashes(file: string): Promise<string[]> {
  const { stdout } = await exec(
    tools.ffprobe,
    [
      '-v',
      'error',
      '-select_streams',
      'a:0',
      '-show_packets',
      '-show_data_hash',
      'MD5',
      '-of',
      'csv=p=0',
      '-show_entries',
      'packet=data_hash',
      file,
    ],
    { maxBuffer: 64 << 20 },
  );
  return stdout.match(/MD5:[0-9a-f]+/g) ?? [];
}

// Codec and container as ffprobe names them, and one frame of each output's codec in seconds.
const EXPECT: Record<OutputFormat, { codec: string; container: string; frame: number }> = {
  mp3: { codec: 'mp3', container: 'mp3', frame: 1152 / 44100 },
  m4b: { codec: 'aac', container: 'mp4', frame: 1024 / 44100 },
  m4a: { codec: 'aac', container: 'mp4', frame: 1024 / 44100 },
  opus: { codec: 'opus', container: 'ogg', frame: 960 / 48000 },
  ogg: { codec: 'vorbis', container: 'ogg', frame: 1024 / 44100 },
  flac: { codec: 'flac', container: 'flac', frame: 1 / 44100 },
  // One of the mixed inputs is a 24-bit FLAC, so the WAV is 24-bit too.
  wav: { codec: 'pcm_s24le', container: 'wav', frame: 1 / 44100 },
};

describe('output formats', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let mixed: string[];
  let inputSeconds: number;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    mixed = await makeOnsetInputs(dir, 6);
    // What the merge may keep of each input: its decode, and for containers that state their length
    // exactly (sample counts, granule positions, the track's own timescale), no more than that.
    // Decoders differ past the stated end (AAC and Vorbis padding, Opus pre-skip counted in the
    // length), so the decode alone is not the input's length. MP4's movie header counts
    // milliseconds, so the stream's duration is the exact one. A Vorbis stream plays its last
    // granule's count (what oggdec plays), which ffmpeg 5.1 may decode short of.
    const lengths = await Promise.all(
      mixed.map(async (f) => {
        const stated = Number((await ffprobeJson(f)).streams.find((s) => s.codec_type === 'audio')?.duration);
        if (f.endsWith('.ogg')) return stated;
        const decoded = await decodedSeconds(f);
        if (f.endsWith('.mp3')) return decoded;
        return Math.min(decoded, stated);
      }),
    );
    inputSeconds = lengths.reduce((a, b) => a + b, 0);
  }, 60_000);
  afterAll(() => cleanup());

  it.each<OutputFormat>(['mp3', 'm4b', 'm4a', 'opus', 'ogg', 'flac', 'wav'])(
    'writes %s as asked, decoding cleanly, as long as the inputs together',
    async (format) => {
      const out = path.join(dir, `mixed.${format}`);
      const report = await mergeFiles(mixed, out, { tools });
      expect(report.format).toBe(format);
      const probe = await ffprobeJson(out);
      expect(probe.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe(EXPECT[format].codec);
      expect(probe.format.format_name.split(',')).toContain(EXPECT[format].container);
      expect(await decodeErrors(out)).toBe('');
      const decoded = (await decodePcm(out)).length / 8000;
      const stated = Number(probe.format.duration);
      // MP4's edit list and Ogg's last granule end AAC and Vorbis where their audio ends; this ffmpeg
      // decodes the padding past that.
      const padded = format === 'm4b' || format === 'm4a' || format === 'ogg';
      expect(Math.abs(report.durationSeconds - (padded ? stated : decoded))).toBeLessThan(0.002);
      // MP3 and AAC copies keep their delay and padding, and each run of encoded inputs between them
      // brings one delay and less than one frame of padding; Opus and Vorbis encode once; FLAC and
      // WAV keep the samples themselves, each input within one sample of its length at the output's
      // rate (a resampler gives n·out/in samples, rounded; the cut at a stated end rounds too).
      const lossy = format !== 'flac' && format !== 'wav';
      expect(Math.abs(report.durationSeconds - inputSeconds)).toBeLessThanOrEqual(
        EXPECT[format].frame * mixed.length + (lossy ? 0.002 : 1e-9),
      );
      expect(report.transcoded).toEqual(lossy ? expect.any(Array) : []);
    },
    60_000,
  );

  it.each<'flac' | 'wav'>(['flac', 'wav'])(
    'keeps every decoded sample of 16-bit inputs in %s',
    async (format) => {
      const inputs = [
        await makeTone(path.join(dir, 'l1.wav'), { seconds: 0.7, frequency: 330 }),
        await makeTone(path.join(dir, 'l2.flac'), { seconds: 0.55, frequency: 550 }),
        await makeTone(path.join(dir, 'l3.wav'), { seconds: 0.61, frequency: 770, channels: 1 }),
      ];
      const out = path.join(dir, `lossless.${format}`);
      const report = await mergeFiles([inputs[0], inputs[1]], out, { tools });
      expect(report.transcoded).toEqual([]);
      const joined = Buffer.concat([await rawPcm(inputs[0], 's16le'), await rawPcm(inputs[1], 's16le')]);
      expect((await rawPcm(out, 's16le')).equals(joined)).toBe(true);
    },
  );

  it('writes 24 bits when an input has them, keeping every sample', async () => {
    const deep = await makeTone(path.join(dir, 'deep.flac'), {
      seconds: 0.6,
      frequency: 440,
      codecArgs: ['-c:a', 'flac', '-sample_fmt', 's32'],
    });
    const plain = await makeTone(path.join(dir, 'plain.wav'), { seconds: 0.5, frequency: 660 });
    for (const format of ['flac', 'wav'] as const) {
      const out = path.join(dir, `deep-out.${format}`);
      await mergeFiles([plain, deep], out, { tools });
      const stream = (await ffprobeJson(out)).streams[0] as {
        bits_per_raw_sample?: string;
        bits_per_sample?: number;
        codec_name: string;
      };
      expect(Number(stream.bits_per_raw_sample) || stream.bits_per_sample).toBe(24);
      const joined = Buffer.concat([await rawPcm(plain, 's32le'), await rawPcm(deep, 's32le')]);
      expect((await rawPcm(out, 's32le')).equals(joined)).toBe(true);
    }
  });

  it('copies AAC inputs into an M4B packet for packet, encoding only the others', async () => {
    const aac = (n: string, f: number, s: number) =>
      makeTone(path.join(dir, n), { seconds: s, frequency: f });
    const inputs = [
      await aac('p1.m4a', 300, 1.1),
      await aac('p2.m4a', 500, 0.7),
      await makeTone(path.join(dir, 'p3.mp3'), { seconds: 0.8 }),
      await aac('p4.m4a', 900, 0.9),
    ];
    const out = path.join(dir, 'copied.m4b');
    const report = await mergeFiles(inputs, out, { tools });
    expect(report.transcoded).toEqual([2]);
    const got = await packetHashes(out);
    const [a, b, , d] = await Promise.all(inputs.map(packetHashes));
    expect(got.slice(0, a.length)).toEqual(a);
    expect(got.slice(a.length, a.length + b.length)).toEqual(b);
    expect(got.slice(got.length - d.length)).toEqual(d);
    expect(await decodeErrors(out)).toBe('');
  });

  it('encodes MP3s and FLACs into an M4B as long as the inputs together within one AAC frame, chapters within 5 ms', async () => {
    // 12 inputs of 2.2 to 2.9 s: about 30 s in one run, encoded in two chunks that meet mid-input.
    const kinds = [ONSET_KINDS[0], ONSET_KINDS[2]];
    const inputs = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        makeOnsetInput(
          path.join(dir, `all-${i}.${kinds[i % 2].ext}`),
          kinds[i % 2],
          2.2 + ((i * 7) % 8) / 10 + 0.0017 * i,
          400 + 50 * i,
        ),
      ),
    );
    const out = path.join(dir, 'all-encoded.m4b');
    const seen: number[] = [];
    const places: string[] = [];
    const report = await mergeFiles(inputs, out, {
      tools,
      concurrency: 2,
      onProgress: (p, where) => {
        seen.push(p);
        places.push(`${p} ${where.stage} ${where.file}/${where.files}`);
      },
    });
    expect(report.transcoded).toEqual(inputs.map((_, i) => i));
    // The bar moves through the decodes and the chunk encodes, never back; it is told again at the
    // same percentage only when the work moves to another stage or file.
    expect(seen.every((p, i) => i === 0 || p >= seen[i - 1])).toBe(true);
    expect(places.every((w, i) => i === 0 || w !== places[i - 1])).toBe(true);
    // Reading the inputs first, then encoding from the first file, writing at the end.
    expect(places[0]).toMatch(/^0 reading \d+\/12$/);
    expect(places.find((w) => w.includes('encoding'))).toMatch(/ encoding 1\/12$/);
    expect(places.at(-1)).toBe('100 writing 12/12');
    expect(seen.filter((p) => p > 20 && p < 90).length).toBeGreaterThan(3);
    expect(seen.at(-1)).toBe(100);
    expect(report.sampleRate).toBe(48000);
    // Each input as decoded at the output's rate: the MP3s without their encoder delay and padding.
    const decoded = await Promise.all(
      inputs.map(
        async (f) =>
          (
            await exec(
              tools.ffmpeg,
              ['-v', 'error', '-i', f, '-ar', '48000', '-ac', '1', '-f', 's16le', '-'],
              { encoding: 'buffer', maxBuffer: 64 << 20 },
            )
          ).stdout.length / 2,
      ),
    );
    const sum = decoded.reduce((a, b) => a + b, 0) / 48000;
    expect(Math.abs(report.durationSeconds - sum)).toBeLessThanOrEqual(1024 / 48000);
    expect(Math.abs(Number((await ffprobeJson(out)).format.duration) - report.durationSeconds)).toBeLessThan(
      0.002,
    );
    expect(await decodeErrors(out)).toBe('');
    const onsets = findOnsets(await decodePcm(out));
    expect(onsets).toHaveLength(inputs.length);
    report.chapters.forEach((c, i) => expect(Math.abs(c.start - onsets[i])).toBeLessThanOrEqual(0.005));
  }, 60_000);

  it('still joins MP3s frame by frame with chapters on, byte for byte', async () => {
    const inputs = await Promise.all(
      [300, 500, 700].map((f, i) =>
        makeTone(path.join(dir, `m${i}.mp3`), { seconds: 0.9 + i / 10, frequency: f }),
      ),
    );
    const out = path.join(dir, 'frames.mp3');
    const report = await mergeFiles(inputs, out, { tools });
    expect(report.transcoded).toEqual([]);
    expect((await ffprobeChapters(out)).map((c) => c.title)).toEqual(['m0', 'm1', 'm2']);
    const output = await readFile(out);
    let from = 0;
    for (const f of inputs) {
      const bytes = await readFile(f);
      // The frames after the input's own tag and Info frame (417 bytes at 128 kb/s).
      const audio = bytes.subarray(bytes.indexOf(Buffer.from([0xff, 0xfb]), bytes.indexOf('Info') + 100));
      const at = output.indexOf(audio.subarray(0, 4096), from);
      expect(at).toBeGreaterThanOrEqual(from);
      expect(output.subarray(at, at + audio.length).equals(audio)).toBe(true);
      from = at + audio.length;
    }
  });

  it('writes title, artist, album and cover in each format, as music-metadata reads them', async () => {
    const cover = path.join(dir, 'cover.png');
    const png = await makeImage(cover, { source: 'testsrc=size=32x32:duration=1' });
    for (const format of ['mp3', 'm4b', 'opus', 'ogg', 'flac'] as const) {
      const out = path.join(dir, `tagged.${format}`);
      await mergeFiles(mixed.slice(0, 2), out, {
        tools,
        title: 'Das Buch «1»',
        artist: 'Ä Writer',
        album: 'Shelf',
        cover,
      });
      const mm = await parseFile(out);
      expect({ format, title: mm.common.title, artist: mm.common.artist, album: mm.common.album }).toEqual({
        format,
        title: 'Das Buch «1»',
        artist: 'Ä Writer',
        album: 'Shelf',
      });
      expect(Buffer.from(mm.common.picture?.[0]?.data ?? []).equals(png)).toBe(true);
    }
  });

  it('takes the cover from the first input that has one', async () => {
    const withCover = await makeMp3WithCover(path.join(dir, 'art.mp3'), 440, 1);
    const out = path.join(dir, 'art.m4b');
    await mergeFiles([mixed[1], withCover], out, { tools });
    const mm = await parseFile(out);
    expect(mm.common.picture?.[0]?.format).toBe('image/png');
    expect(mm.common.title).toBe('Part 2'); // the first input that has a title
  });

  it("titles each chapter by its input's title tag, else its file name, or as asked; none when off", async () => {
    const titled = mixed.slice(0, 2);
    const untitled = await makeTone(path.join(dir, 'Chapter Three.wav'), { seconds: 0.5 });
    const a = await mergeFiles([...titled, untitled], path.join(dir, 'names.ogg'), { tools });
    expect(a.chapters.map((c) => c.title)).toEqual(['Part 1', 'Part 2', 'Chapter Three']);
    const b = await mergeFiles([...titled, untitled], path.join(dir, 'tags.ogg'), {
      tools,
      chapterTitles: 'tags',
    });
    expect(b.chapters.map((c) => c.title)).toEqual(['Part 1', 'Part 2', 'Chapter Three']);
    const c = await mergeFiles(titled, path.join(dir, 'files.ogg'), { tools, chapterTitles: 'files' });
    expect(c.chapters.map((ch) => ch.title)).toEqual(['in-000', 'in-001']);
    for (const format of ['mp3', 'm4b', 'flac'] as const) {
      const out = path.join(dir, `none.${format}`);
      const r = await mergeFiles(titled, out, { tools, chapters: false });
      expect(r.chapters).toEqual([]);
      expect(await ffprobeChapters(out)).toEqual([]);
    }
  });

  it('refuses a cover that is not a JPEG or PNG, naming it, and leaves nothing behind', async () => {
    const notImage = path.join(dir, 'cover.txt');
    await exec('sh', ['-c', `echo hello > '${notImage}'`]);
    const out = path.join(dir, 'refused.m4b');
    const err = await mergeFiles(mixed.slice(0, 2), out, { tools, cover: notImage }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toBe(`${notImage}: cover is not a JPEG or PNG image`);
    expect(err).toMatchObject({ code: 'not-image' });
    expect(existsSync(out)).toBe(false);
  });

  it('names the input whose decode fails in an M4B merge, and leaves nothing behind', async () => {
    const outDir = path.join(dir, 'decode-fails');
    await mkdir(outDir);
    const inputs = mixed.slice(0, 3);
    const runner: Runner = async (req) =>
      req.args.includes(fileArg(inputs[1])) && req.args.some((a) => a.startsWith('pcm_'))
        ? { code: null, signal: 'SIGSEGV', stdout: '', stderrTail: '' }
        : spawnRunner(req);
    const err = await mergeFiles(inputs, path.join(outDir, 'failed.m4b'), {
      tools,
      runner,
      displayNames: ['one.mp3', 'two.wav', 'three.flac'],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ file: 'two.wav', index: 1 });
    expect((err as Error).message).toBe('two.wav: could not be re-encoded (ffmpeg was killed by SIGSEGV)');
    expect(await readdir(outDir)).toEqual([]);
  });

  it.each([
    { format: 'm4b', input: 'mp3' },
    { format: 'mp3', input: 'flac' },
  ])(
    'cancels an $format merge while its chunks encode: AbortError, no output, no temporary files, no ffmpeg left',
    async ({ format, input }) => {
      // Long enough that the encoders report progress several times before they end.
      const long = await makeTone(path.join(dir, `long-chunks.${input}`), { seconds: 90 });
      const outDir = path.join(dir, `cancel-chunks-${format}`);
      await mkdir(outDir);
      const controller = new AbortController();
      // The decodes are a tenth of the bar: past a fifth, only the chunk encoders run.
      const err = await mergeFiles([long, long], path.join(outDir, `cancelled.${format}`), {
        tools,
        concurrency: 2,
        signal: controller.signal,
        onProgress: (p) => p >= 20 && controller.abort(),
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AbortError);
      expect(await readdir(outDir)).toEqual([]);
      expect(childrenNamed('ffmpeg')).toEqual([]);
    },
    60_000,
  );

  it.each(['ogg', 'm4b'] as const)(
    'cancels a %s merge part-way: AbortError, no output, no temporary files',
    async (format) => {
      const long = await makeTone(path.join(dir, `long-${format}.wav`), { seconds: 30 });
      const outDir = path.join(dir, `cancel-${format}`);
      await mkdir(outDir);
      const controller = new AbortController();
      const out = path.join(outDir, `cancelled.${format}`);
      const err = await mergeFiles([long, long], out, {
        tools,
        concurrency: 1,
        signal: controller.signal,
        onProgress: (p) => p > 0 && controller.abort(),
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AbortError);
      expect(await readdir(outDir)).toEqual([]);
    },
  );
});
