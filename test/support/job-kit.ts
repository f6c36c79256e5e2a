// Test kit for the job queue: disk storage in a temp folder, a recording Broadcaster, items and
// jobs, and a scripted merge that shows what it was asked. Used by tests only (not built).
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pino } from 'pino';
import type { MergeOptions, MergeReport, Tools } from '../../src/engine/index.js';
import { AbortError } from '../../src/engine/errors.js';
import type { Broadcaster } from '../../src/server/realtime/broadcaster.js';
import { createDiskStorage, type DiskStorage } from '../../src/server/files/disk/disk-storage.js';
import type { ItemRow, JobRow } from '../../src/server/data/store.js';

export const silentLog = pino({ level: 'silent' });
export const fakeTools: Tools = {
  ffmpeg: 'ffmpeg',
  ffprobe: 'ffprobe',
  source: 'path',
  ffmpegVersion: 'test',
};

export function diskStorage(root: string): DiskStorage {
  return createDiskStorage(root);
}

export class RecordingBroadcaster implements Broadcaster {
  events: Array<{ channel: string; event: string; data: string; payload: Record<string, unknown> }> = [];
  broadcast(channel: string, event: string, payload: Record<string, unknown>) {
    this.events.push({ channel, event, data: String(payload.data), payload });
  }
  dataOn(channel: string): string[] {
    return this.events.filter((e) => e.channel === channel).map((e) => e.data);
  }
  payloadsOn(channel: string): Array<Record<string, unknown>> {
    return this.events.filter((e) => e.channel === channel).map((e) => e.payload);
  }
}

export function item(sid: string, n: number, filename: string, appid = 'app'): ItemRow {
  return {
    id: `item-${sid}-${n}`,
    sid,
    appid,
    newfilename: `stored${n}`,
    format: 'mp3',
    filename,
    size: 1000,
    duration: 1,
    codec: 'mp3',
    sampleRate: 44100,
    channels: 2,
    createdAt: n,
  };
}

export function job(
  id: string,
  sid: string,
  itemIds: string[],
  appid = 'app',
  over: Partial<JobRow> = {},
): JobRow {
  return {
    id,
    sid,
    appid,
    itemIds,
    status: 'queued',
    error: null,
    errorCode: null,
    errorFile: null,
    resultId: null,
    createdAt: 0,
    startedAt: null,
    finishedAt: null,
    requestId: null,
    options: {},
    percent: null,
    statusText: null,
    attempts: 0,
    ...over,
  };
}

export interface MergeCall {
  inputs: string[];
  output: string;
  opts: MergeOptions;
}

/** The smallest whole PNG: its signature, a 1 x 1 IHDR, one red pixel's IDAT, and IEND. */
export const TINY_PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xde]),
  Buffer.from([0, 0, 0, 12, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0, 0]),
  Buffer.from([0x03, 0x01, 0x01, 0x00, 0xc9, 0xfe, 0x92, 0xef, 0, 0, 0, 0]),
  Buffer.from('IEND'),
  Buffer.from([0xae, 0x42, 0x60, 0x82]),
]);

/**
 * A merge that writes the inputs' paths joined as the output's bytes, after reporting progress.
 * `gate` holds it before finishing (to keep it "running"); `failWith` makes it throw instead,
 * after leaving a half-written temp file behind like a real failure would. `cover`: it embedded
 * one, and leaves its copy (TINY_PNG) where the options ask.
 */
export function scriptedMerge(
  script: {
    gate?: () => Promise<void>;
    failWith?: (call: MergeCall) => Error;
    steps?: number[];
    cover?: boolean;
  } = {},
) {
  const calls: MergeCall[] = [];
  const merge = async (inputs: string[], output: string, opts: MergeOptions): Promise<MergeReport> => {
    const call = { inputs, output, opts };
    calls.push(call);
    await mkdir(opts.tmpDir ?? path.dirname(output), { recursive: true });
    await writeFile(path.join(opts.tmpDir ?? path.dirname(output), 'part-0.mp3'), 'partial');
    const files = inputs.length;
    for (const p of script.steps ?? [0, 25, 50, 75, 100]) {
      const file = Math.min(files, Math.max(1, Math.ceil((p / 100) * files)));
      opts.onProgress?.(p, { stage: p >= 100 ? 'writing' : 'encoding', file, files });
    }
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
    if (script.cover && opts.coverCopy) await writeFile(opts.coverCopy, TINY_PNG);
    // One chapter per input titled by its display name, as the engine would with chapters on.
    const chapters =
      opts.chapters === false
        ? []
        : inputs.map((_, i) => ({ title: opts.displayNames?.[i] ?? `part ${i + 1}`, start: i, end: i + 1 }));
    return {
      output,
      format: opts.format ?? 'mp3',
      durationSeconds: inputs.length,
      inputs: inputs.length,
      transcoded: [],
      fallbacks: [],
      chapters,
      tags: { title: opts.title ?? 'book' },
      cover: Boolean(script.cover && opts.coverCopy),
      bytes: bytes.length,
      sampleRate: 44100,
      channels: 2,
    };
  };
  return { merge, calls };
}

/** Names of everything under `dir`, recursively ([] when it does not exist). */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return entries.map(String).sort();
}
