// The worst crossfade one session can ask for: two 70 s 8-channel 192 kHz WavPacks, a 30 s fade,
// to WAV. The server's process stays under 768 MB RSS throughout (sampled while it merges), and
// the output is what the caps say: 96 kHz stereo, 110 s.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { ffprobeJson, tools } from './support/audio-fixtures.js';
import { useMediaApp } from './support/media-app.js';

const exec = promisify(execFile);
const env = useMediaApp({
  prefix: 'crossfade-memory-',
  media: async (file) => {
    for (const [i, name] of ['a.wv', 'b.wv'].entries())
      await exec(tools.ffmpeg, [
        ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=f=${300 + 200 * i}:r=192000:d=70`],
        ...['-af', 'pan=7.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0|c6=c0|c7=c0', '-c:a', 'wavpack'],
        file(name),
      ]);
  },
  config: { maxFileBytes: 1024 * 1024 * 1024 },
});

it('stays under 768 MB RSS through a 30 s crossfade of two 8-channel 192 kHz inputs', async () => {
  const app = env.app;
  const { s, items } = await env.sessionWith(['a.wv', 'b.wv']);
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const res = await env.merge(
    s,
    items.map((i) => i.id),
    { options: { format: 'wav', crossfade: 30 } },
  );
  clearInterval(sampler);
  expect(res.statusCode, res.body).toBe(200);
  expect(peak).toBeLessThan(768 * 1024 * 1024);
  const [result] = await app.store.listResults(s.sid);
  const probed = await ffprobeJson(path.join(app.dataDir, 'results', s.sid, result.file));
  const audio = probed.streams.find((st) => st.codec_type === 'audio')!;
  expect([Number(audio.sample_rate), audio.channels]).toEqual([96000, 2]);
  expect(Number(probed.format.duration)).toBeCloseTo(110, 0);
});
