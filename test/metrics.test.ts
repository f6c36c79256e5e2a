// METRICS_PORT as an operator's Prometheus meets it: the text on its own port, read by a real
// Prometheus text parser, every audio-merge series there, and the counters moving when a merge
// succeeds, when one fails, and when uploads are kept or refused. Never on the public port.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusChannel } from '../src/shared/types.js';
import { listenStatus } from './support/echo-client.js';
import { useMediaApp } from './support/media-app.js';
import { parsePrometheusText } from './support/prometheus-text.js';

const env = useMediaApp({
  prefix: 'metrics-media-',
  tones: {
    'one.wav': { frequency: 440, seconds: 1 },
    'two.flac': { frequency: 660, seconds: 1 },
    'broken.wav': { frequency: 550, seconds: 1 },
  },
  config: { metricsPort: 0, realtime: true, socketPort: 0 },
});

const SERIES = [
  'audio_merge_merges_total',
  'audio_merge_merge_seconds',
  'audio_merge_queue_jobs',
  'audio_merge_fallbacks_total',
  'audio_merge_uploads_total',
  'audio_merge_upload_bytes_total',
  'audio_merge_disk_free_bytes',
  'audio_merge_realtime_connections',
];

async function scrape() {
  const res = await fetch(`http://127.0.0.1:${env.app.metricsPort}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain');
  return parsePrometheusText(await res.text());
}

describe('metrics on METRICS_PORT', () => {
  it('serves every series, with process metrics, on its own port and nowhere on PORT', async () => {
    const s = await env.session();
    const status = listenStatus(env.app.realtime.port, s.cookie, statusChannel(s.appid, s.sid));
    await status.ready;
    const scraped = await scrape();
    status.close();
    const names = [...scraped.types.keys()];
    expect(names).toEqual(expect.arrayContaining(SERIES));
    expect(names).toEqual(
      expect.arrayContaining(['process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds']),
    );
    expect(scraped.types.get('audio_merge_merge_seconds')).toBe('histogram');
    expect(scraped.types.get('audio_merge_merges_total')).toBe('counter');
    expect(scraped.value('audio_merge_disk_free_bytes')).toBeGreaterThan(0);
    for (const state of ['waiting', 'active', 'delayed'])
      expect(scraped.value('audio_merge_queue_jobs', { state })).toBe(0);
    expect(scraped.value('audio_merge_realtime_connections')).toBe(1);

    expect(env.app.metricsPort).not.toBe(env.app.config.port);
    const onPublic = await env.inject({ method: 'GET', url: '/metrics' });
    expect(onPublic.statusCode).toBe(404);
    expect(onPublic.body).not.toContain('audio_merge');
    const elsewhere = await fetch(`http://127.0.0.1:${env.app.metricsPort}/`);
    expect(elsewhere.status).toBe(404);
  });

  it('counts uploads kept and refused, and merges that succeed and fail, by format', async () => {
    const before = await scrape();
    const s = await env.session();
    const items = await env.uploadAll(s, ['one.wav', 'two.flac', 'broken.wav']);
    const refused = await env.upload(s, [
      { filename: 'notes.mp3', content: Buffer.from('not audio at all') },
    ]);
    expect(refused.statusCode).toBe(422);

    const ok = await env.merge(s, [items[1].id, items[0].id], { options: { format: 'm4b' } });
    expect(ok.statusCode, ok.body).toBe(200);
    // A stored upload damaged on the disk: the engine refuses it, the merge fails.
    const row = items[2];
    await writeFile(
      path.join(env.app.storage.root, 'uploads', s.sid, `${row.newfilename}.${row.format}`),
      'no longer audio',
    );
    const bad = await env.merge(s, [items[0].id, items[2].id]);
    expect(bad.statusCode).toBeGreaterThanOrEqual(400);

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      (after.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);
    expect(delta('audio_merge_merges_total', { outcome: 'succeeded', format: 'm4b' })).toBe(1);
    expect(delta('audio_merge_merges_total', { outcome: 'failed', format: 'mp3' })).toBe(1);
    expect(delta('audio_merge_merges_total', { outcome: 'succeeded', format: 'mp3' })).toBe(0);
    expect(delta('audio_merge_merge_seconds_count', { format: 'm4b' })).toBe(1);
    expect(delta('audio_merge_merge_seconds_count', { format: 'mp3' })).toBe(0);
    expect(delta('audio_merge_uploads_total', { outcome: 'accepted' })).toBe(3);
    expect(delta('audio_merge_uploads_total', { outcome: 'refused' })).toBe(1);
    const sizes = items.reduce((sum, i) => sum + Number(i.size), 0);
    expect(delta('audio_merge_upload_bytes_total')).toBe(sizes);
  });
});
