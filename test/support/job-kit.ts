// Test kit for the job runner: a disk Storage in a temp folder, a recording Realtime, items and
// jobs, and a scripted merge that shows what it was asked. Used by tests only (not built).
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pino } from 'pino';
import type { MergeOptions, MergeReport, Tools } from '../../src/engine/index.js';
import { AbortError } from '../../src/engine/errors.js';
import type { Realtime } from '../../src/server/realtime/server.js';
import type { Storage } from '../../src/server/files/storage.js';
import type { ItemRow, JobRow } from '../../src/server/data/store.js';

export const silentLog = pino({ level: 'silent' });
export const fakeTools: Tools = { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe', source: 'path', ffmpegVersion: 'test' };

export function diskStorage(root: string): Storage {
  return {
    root,
    tmpDir: path.join(root, 'tmp'),
    uploadPath: (i) => path.join(root, 'uploads', i.sid, `${i.newfilename}.${i.format}`),
    resultsDir: (sid) => path.join(root, 'results', sid),
    resultPath: (r) => path.join(root, 'results', r.sid, r.file),
  };
}

export class RecordingRealtime implements Realtime {
  readonly port = 0;
  events: Array<{ channel: string; event: string; data: string }> = [];
  broadcast(channel: string, event: string, payload: Record<string, unknown>) {
    this.events.push({ channel, event, data: String(payload.data) });
  }
  dataOn(channel: string): string[] {
    return this.events.filter((e) => e.channel === channel).map((e) => e.data);
  }
  async close() {}
}

export function item(sid: string, n: number, filename: string, appid = 'app'): ItemRow {
  return {
    id: `item-${sid}-${n}`, sid, appid, newfilename: `stored${n}`, format: 'mp3', filename,
    size: 1000, duration: 1, codec: 'mp3', sampleRate: 44100, channels: 2, createdAt: n,
  };
}

export function job(id: string, sid: string, itemIds: string[], appid = 'app'): JobRow {
  return { id, sid, appid, itemIds, status: 'queued', error: null, resultId: null, createdAt: 0, startedAt: null, finishedAt: null };
}

export interface MergeCall {
  inputs: string[];
  output: string;
  opts: MergeOptions;
}

/**
 * A merge that writes the inputs' paths joined as the output's bytes, after reporting progress.
 * `gate` holds it before finishing (to keep it "running"); `failWith` makes it throw instead,
 * after leaving a half-written temp file behind like a real failure would.
 */
export function scriptedMerge(script: { gate?: () => Promise<void>; failWith?: (call: MergeCall) => Error; steps?: number[] } = {}) {
  const calls: MergeCall[] = [];
  const merge = async (inputs: string[], output: string, opts: MergeOptions): Promise<MergeReport> => {
    const call = { inputs, output, opts };
    calls.push(call);
    await mkdir(opts.tmpDir ?? path.dirname(output), { recursive: true });
    await writeFile(path.join(opts.tmpDir ?? path.dirname(output), 'part-0.mp3'), 'partial');
    for (const p of script.steps ?? [0, 25, 50, 75, 100]) opts.onProgress?.(p);
    if (script.gate) {
      await Promise.race([
        script.gate(),
        new Promise((_, reject) => {
          if (opts.signal?.aborted) reject(new AbortError());
          opts.signal?.addEventListener('abort', () => reject(new AbortError()));
        }),
      ]);
    }
    if (script.failWith) throw script.failWith(call);
    const bytes = Buffer.from(inputs.join('\n'));
    await writeFile(output, bytes);
    return { output, format: 'mp3', durationSeconds: inputs.length, inputs: inputs.length, transcoded: [], chapters: [], bytes: bytes.length, sampleRate: 44100, channels: 2 };
  };
  return { merge, calls };
}

/** Names of everything under `dir`, recursively ([] when it does not exist). */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries.map(String).sort();
}

/** Wait (by turns of the event loop, not by time) until `cond` holds. */
export async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setImmediate(r));
}
