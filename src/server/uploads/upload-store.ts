// The one path every upload takes once its bytes are on local disk, multipart or tus: probe it,
// then keep it as an item of the session, or refuse it with a reason naming the file. A refused
// file is removed; nothing is half-stored.
import { stat, unlink } from 'node:fs/promises';
import {
  AbortError,
  decodedLength,
  decodedSeconds,
  decodePeaks,
  decodeTimeoutMs,
  InputError,
  oneLineTag,
  type ProbeResult,
  type Tools,
} from '../../engine/index.js';
import { peaksDuration, type PeakTable } from '../../shared/peaks.js';
import type { Clock } from '../../shared/clock.js';
import type { AudioItem } from '../../shared/types.js';
import type { AppConfig } from '../config.js';
import type { ItemRow, Store } from '../data/store.js';
import type { DiskBudget } from '../files/disk-budget.js';
import { peaksRef, tagsRef, uploadRef, type FileStorage } from '../files/storage.js';
import { inputSentence } from '../errors.js';
import { ERRORS, fail, type ErrorCode } from '../http/errors.js';
import { randomId } from '../http/session.js';
import { toAudioItem } from './audio-item.js';
import { keepPeaks, type Peaks } from './waveforms.js';
import { unpooled, type UploadWork } from './upload-work.js';
import { keepTagDetails } from './tag-details.js';

export type Prober = (
  file: string,
  opts: { tools?: Tools; displayName?: string; countEveryFrame?: boolean },
) => Promise<ProbeResult>;

export interface UploadStoreDeps {
  store: Store;
  files: FileStorage;
  config: AppConfig;
  tools: Tools;
  probe: Prober;
  clock: Clock;
  /** Places held by this session's uploads still in progress elsewhere (tus); they count against MAX_FILES. */
  heldElsewhere?: (sid: string) => number;
  /** DATA_DIR's disk, shared with merges and uploads in progress (MIN_FREE_MB). */
  disk: DiskBudget;
  /** The one decode of an upload (its waveform and true length); the engine's decodePeaks unless a test's needs another. */
  measure?: typeof decodePeaks;
  /** The measuring decode's time limit; by default what the merge limit's worth of its audio may take. */
  measureTimeoutMs?: number;
  /** Makes the waveform of an item stored without one (an MP3), once it is stored. */
  peaks?: Pick<Peaks, 'prepare'>;
  /** The upload pool the probe and measuring decode take their turn in (none: at once). */
  work?: UploadWork;
}

export interface Refusal {
  filename: string;
  error: string;
  code: ErrorCode;
}

export interface Probed {
  tmp: string;
  filename: string;
  probe: ProbeResult;
  size: number;
  /** The waveform, stored beside the file; absent when the file could not be decoded whole. */
  peaks?: PeakTable;
}

export type StoreOutcome = { ok: true; item: AudioItem } | ({ ok: false; status: number } & Refusal);

/** Probe, then keep: what a tus upload goes through when its last byte is in. */
export type StoreUpload = (input: {
  sid: string;
  appid: string;
  filename: string;
  localPath: string;
  /** Aborted when the client is gone: the decode ends, nothing is stored, and this rejects. */
  signal?: AbortSignal;
}) => Promise<StoreOutcome>;

const SAFE_FORMAT = /^[a-z0-9]{1,10}$/;

/** The upload's title tag as kept for its default chapter title (by the engine's rule for one). */
export function keptTitleTag(tag: string | undefined): string | null {
  return (tag && oneLineTag(tag)) || null;
}

export const removeQuietly = (file: string) => unlink(file).catch(() => {});

export function tooMany(filename: string, limit: number): Refusal {
  return {
    filename,
    code: 'tooManyFiles',
    error: `${filename} was not stored: a session holds at most ${limit} files`,
  };
}

export const isRefusal = (v: object): v is Refusal => 'code' in v && 'error' in v;

/** The session's limit less the places its other uploads in progress hold. */
export const roomFor = (deps: UploadStoreDeps, sid: string) =>
  deps.config.maxFiles - (deps.heldElsewhere?.(sid) ?? 0);

/**
 * Before a byte is stored: `incoming` bytes must fit on DATA_DIR's disk beside what merges and
 * uploads in progress have reserved, and still leave MIN_FREE_MB free.
 */
export async function refuseIfDiskLow(deps: Pick<UploadStoreDeps, 'disk'>, incoming: number): Promise<void> {
  if (!(await deps.disk.fits(incoming))) fail('disk-full');
}

/**
 * The duration merges are budgeted by, and the waveform when it comes for free. An MP3's frames
 * are counted by the probe itself, so it is not decoded here: its waveform is made once it is
 * stored, while its upload is answered. Any other input is decoded, since its header may claim a rate or length
 * that is not what it holds, and that one decode gives its waveform too. The decode stops at the
 * merge limit: a file that long can only be refused anyway. A file that does not decode to the
 * end has no waveform yet, and is measured as far as it decodes (its probed length when that is
 * nothing). The decode ends when `signal` does (the client is gone), and a file that takes longer
 * than it could to decode at the merge limit is refused.
 */
async function measureUpload(
  deps: UploadStoreDeps,
  file: string,
  probe: ProbeResult,
  signal?: AbortSignal,
): Promise<{ durationSeconds: number; peaks?: PeakTable }> {
  // An MP3's one length comes from its frames and LAME tag, the way the engine counts it.
  if (probe.mp3) return { durationSeconds: decodedLength(probe) };
  const limitSeconds = deps.config.maxMergeHours * 3600 + 1;
  const timeout = AbortSignal.timeout(
    deps.measureTimeoutMs ?? decodeTimeoutMs(limitSeconds, probe.sampleRate, probe.channels),
  );
  const job = {
    tools: deps.tools,
    limitSeconds,
    signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
  };
  try {
    const peaks = await (deps.measure ?? decodePeaks)(file, {
      ...job,
      channels: probe.channels,
      sampleRate: probe.sampleRate,
    }).catch((err: unknown) => {
      if (err instanceof InputError) return undefined;
      throw err;
    });
    const decoded = peaks ? peaksDuration(peaks) : await decodedSeconds(file, job);
    return { durationSeconds: decodedLength(probe, decoded), peaks };
  } catch (err) {
    if (timeout.aborted && !signal?.aborted)
      throw new InputError(file, 'not-audio', 'took too long to decode');
    throw err;
  }
}

/**
 * Phase 1: is it audio we can use? Kept for storing, or the reason it is refused. Other failures
 * are thrown. The probe and the measuring decode wait for their turn in the upload pool, under
 * the session `sid`.
 */
export async function probeUpload(
  deps: UploadStoreDeps,
  tmp: string,
  filename: string,
  /** The client is gone: the decode ends (or never starts), and this rejects with an AbortError. */
  signal?: AbortSignal,
  sid = '',
): Promise<Probed | Refusal> {
  return (deps.work ?? unpooled).run(sid, () => probeNow(deps, tmp, filename, signal), signal);
}

async function probeNow(
  deps: UploadStoreDeps,
  tmp: string,
  filename: string,
  signal?: AbortSignal,
): Promise<Probed | Refusal> {
  try {
    // An MP3's length is its frames, every one counted: an upload's LAME tag may state any count.
    const probe = await deps.probe(tmp, { tools: deps.tools, displayName: filename, countEveryFrame: true });
    if (!SAFE_FORMAT.test(probe.format)) {
      throw new InputError(filename, 'not-audio', `its container (${probe.format}) is not supported`);
    }
    const { durationSeconds, peaks } = await measureUpload(deps, tmp, probe, signal);
    return { tmp, filename, probe: { ...probe, durationSeconds }, size: (await stat(tmp)).size, peaks };
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    // The sentence is chosen by the refusal's kind; the engine's words (ffmpeg's) are the command line's.
    return { filename, code: err.code, error: `${inputSentence(err.code, filename)}; it was not stored` };
  }
}

/**
 * Phase 2: move a probed file into storage and record it. The count check and the insert are one
 * atomic store operation, so two uploads at once cannot pass the limit together.
 */
export async function keepUpload(
  deps: UploadStoreDeps,
  sid: string,
  appid: string,
  p: Probed,
): Promise<ItemRow | Refusal> {
  const { store, files } = deps;
  const item: ItemRow = {
    id: randomId(16),
    sid,
    appid,
    newfilename: randomId(16),
    format: p.probe.format,
    filename: p.filename,
    size: p.size,
    duration: p.probe.durationSeconds,
    codec: p.probe.codec,
    sampleRate: p.probe.sampleRate,
    channels: p.probe.channels,
    createdAt: deps.clock.now(),
    // Kept for the default chapter title the page shows.
    titleTag: keptTitleTag(p.probe.tags.title),
    // A merge keeps a file's own chapters in place of the one the item's title would name.
    chapterCount: p.probe.chapterCount ?? null,
  };
  const ref = uploadRef(item);
  let added = false;
  try {
    // The waveform first: once the row exists, a peaks request may come at once.
    if (p.peaks) await keepPeaks(files, item, p.peaks);
    await keepTagDetails(files, item, p.probe.tags);
    await files.put(ref, p.tmp);
    added = await store.addItemIfUnder(item, roomFor(deps, sid));
    if (!added) return tooMany(p.filename, deps.config.maxFiles);
    // An MP3's waveform is made after the answer; any other file's came with its measuring decode,
    // or that decode failed and another would too.
    if (!p.peaks && p.probe.mp3) deps.peaks?.prepare(item);
    return item;
  } finally {
    if (!added) {
      await files.remove(ref).catch(() => {});
      await files.remove(peaksRef(item)).catch(() => {});
      await files.remove(tagsRef(item)).catch(() => {});
    }
  }
}

export function createStoreUpload(deps: UploadStoreDeps): StoreUpload {
  return async ({ sid, appid, filename, localPath, signal }) => {
    const probed = await probeUpload(deps, localPath, filename, signal, sid);
    // Gone while it was probed: nothing is stored for nobody.
    if (signal?.aborted) throw new AbortError('The client is gone');
    const kept = isRefusal(probed) ? probed : await keepUpload(deps, sid, appid, probed);
    if (isRefusal(kept)) return { ok: false, status: ERRORS[kept.code].status, ...kept };
    return { ok: true, item: toAudioItem(kept) };
  };
}
