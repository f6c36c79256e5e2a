// POST /app/merge/upload: stream each part to scratch, probe it with the engine, and only then
// store it under a new random name with the real format. A refused file leaves nothing behind.
// The handler runs in named phases: receive the parts, check the form, store what was probed,
// answer.
import { createWriteStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFile, Multipart } from '@fastify/multipart';
import { InputError, type ProbeResult, type Tools } from '../../../engine/index.js';
import type { Clock } from '../../../shared/clock.js';
import type { AudioItem } from '../../../shared/types.js';
import type { AppConfig } from '../../config.js';
import { AppError, fail, type ErrorCode } from '../errors.js';
import type { Flash } from '../flash.js';
import { csrfMatches, CSRF_HEADER, randomId, requireSession } from '../session.js';
import { uploadRef, type FileStorage } from '../../files/storage.js';
import type { ItemRow, SessionRow, Store } from '../../data/store.js';
import { displayName, megabytes, wantsHtml } from './upload-names.js';
import { APPID_PATTERN, toAudioItem } from './items.js';

export type Prober = (file: string, opts: { tools?: Tools; displayName?: string }) => Promise<ProbeResult>;

export interface UploadRouteDeps {
  store: Store;
  files: FileStorage;
  config: AppConfig;
  tools: Tools;
  probe: Prober;
  clock: Clock;
  /** Where a plain form post's refusals wait for the page it is redirected to. */
  flash: Flash;
}

/** Files one request may carry; more are refused as a whole (the session limit is MAX_FILES). */
export const MAX_FILES_PER_REQUEST = 100;
/** Form fields one request may carry (appid, _csrf and a few a host page might add). */
const MAX_FIELDS_PER_REQUEST = 20;

interface Refusal {
  filename: string;
  error: string;
  code: ErrorCode;
}
interface Probed {
  tmp: string;
  filename: string;
  probe: ProbeResult;
  size: number;
}
/** What one upload request has gathered so far. */
interface Upload {
  session: SessionRow;
  csrfOk: boolean;
  appid: string;
  probed: Probed[];
  refused: Refusal[];
  /** Scratch files not yet stored or removed: removed whatever happens. */
  inFlight: Set<string>;
}

const SAFE_FORMAT = /^[a-z0-9]{1,10}$/;
const BROKEN_MULTIPART = 'The upload is not valid multipart/form-data (cut short or malformed)';

const removeQuietly = (file: string) => unlink(file).catch(() => {});

export async function uploadRoutes(app: FastifyInstance, deps: UploadRouteDeps): Promise<void> {
  app.post(
    '/app/merge/upload',
    { config: { csrfInForm: true, rateLimit: { max: deps.config.uploadRateLimit, timeWindow: '1 minute' } } },
    async (request, reply) => {
      if (!request.isMultipart()) fail('badRequest', 'Send the files as multipart/form-data');
      const upload: Upload = {
        session: requireSession(request),
        // The onRequest hook has checked the header when there is one; otherwise `_csrf` must come first.
        csrfOk: request.headers[CSRF_HEADER] !== undefined,
        appid: deps.config.appId,
        probed: [],
        refused: [],
        inFlight: new Set(),
      };
      let stored: AudioItem[];
      try {
        await receiveParts(request, upload, deps);
        checkForm(upload);
        stored = await storeProbed(upload, deps);
      } finally {
        await Promise.all([...upload.inFlight].map(removeQuietly));
      }
      return respond(request, reply, deps.flash, upload, stored);
    },
  );
}

/** Phase 1: read the form's fields and receive each file part into scratch, probed. */
async function receiveParts(request: FastifyRequest, upload: Upload, deps: UploadRouteDeps): Promise<void> {
  for await (const part of parserPhase(() =>
    request.parts({
      limits: {
        fileSize: deps.config.maxFileBytes,
        files: MAX_FILES_PER_REQUEST,
        fields: MAX_FIELDS_PER_REQUEST,
        fieldSize: 1024,
        parts: MAX_FILES_PER_REQUEST + MAX_FIELDS_PER_REQUEST,
      },
    }),
  )) {
    if (part.type === 'field') readField(upload, part);
    else await receiveFile(upload, part, deps);
  }
}

function readField(upload: Upload, part: Extract<Multipart, { type: 'field' }>): void {
  if (part.fieldname === '_csrf') upload.csrfOk ||= csrfMatches(upload.session, part.value);
  if (part.fieldname === 'appid') upload.appid = String(part.value);
}

async function receiveFile(upload: Upload, part: MultipartFile, deps: UploadRouteDeps): Promise<void> {
  const { store, files, config } = deps;
  const filename = displayName(part.filename);
  if (!upload.csrfOk) {
    part.file.resume();
    fail('csrf');
  }
  if (part.fieldname !== 'files' || part.filename === '') {
    // An unknown part, or the empty part a form sends when no file was chosen.
    part.file.resume();
    return;
  }
  if ((await store.countItems(upload.session.sid)) + upload.probed.length >= config.maxFiles) {
    part.file.resume();
    upload.refused.push(tooMany(filename, config.maxFiles));
    return;
  }
  const tmp = files.scratchPath(`${randomId(16)}.upload`);
  upload.inFlight.add(tmp);
  await pipeline(part.file, createWriteStream(tmp, { flags: 'wx' })).catch((err: unknown) => {
    // The disk's own errors (a full disk) say so by their code; anything else came from the parser.
    throw isSystemError(err) ? err : new AppError('badRequest', BROKEN_MULTIPART);
  });
  const refusal = part.file.truncated
    ? { filename, code: 'tooLarge' as const, error: `${filename} is larger than the ${megabytes(config.maxFileBytes)} MB limit` }
    : await probeReceived(upload, tmp, filename, deps);
  if (refusal) {
    await removeQuietly(tmp);
    upload.inFlight.delete(tmp);
    upload.refused.push(refusal);
  }
}

/** Probe a received file: kept for storing, or the reason it is refused. */
async function probeReceived(upload: Upload, tmp: string, filename: string, deps: UploadRouteDeps): Promise<Refusal | undefined> {
  try {
    const probe = await deps.probe(tmp, { tools: deps.tools, displayName: filename });
    if (!SAFE_FORMAT.test(probe.format)) {
      throw new InputError(filename, `its container (${probe.format}) is not supported`, -1, 'not-audio');
    }
    upload.probed.push({ tmp, filename, probe, size: (await stat(tmp)).size });
    return undefined;
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { filename, code: err.code, error: `${filename} was not stored: ${err.reason}` };
  }
}

/** Phase 2: nothing is stored without the CSRF token and a valid appid. */
function checkForm(upload: Upload): void {
  if (!upload.csrfOk) fail('csrf');
  if (!new RegExp(APPID_PATTERN).test(upload.appid)) fail('badRequest', 'The appid field is not valid');
}

/** Phase 3: store each probed file, up to the session's limit. */
async function storeProbed(upload: Upload, deps: UploadRouteDeps): Promise<AudioItem[]> {
  const stored: AudioItem[] = [];
  for (const p of upload.probed) {
    const item = await storeOne(deps, upload.session.sid, upload.appid, p);
    upload.inFlight.delete(p.tmp);
    if (item) stored.push(toAudioItem(item));
    else upload.refused.push(tooMany(p.filename, deps.config.maxFiles));
  }
  return stored;
}

/**
 * Move a probed temp file into storage and record it. The count check and the insert are one
 * atomic store operation, so two uploads at once cannot pass the limit together.
 */
async function storeOne(deps: UploadRouteDeps, sid: string, appid: string, p: Probed): Promise<ItemRow | undefined> {
  const { store, files, config } = deps;
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
  };
  const ref = uploadRef(item);
  await files.put(ref, p.tmp);
  let added = false;
  try {
    added = await store.addItemIfUnder(item, config.maxFiles);
    return added ? item : undefined;
  } finally {
    if (!added) await files.remove(ref).catch(() => {});
  }
}

/** Phase 4: JSON for scripts; a plain form post goes back to the page, its refusals shown there once. */
function respond(request: FastifyRequest, reply: FastifyReply, flash: Flash, upload: Upload, stored: AudioItem[]) {
  const { session, refused } = upload;
  if (stored.length > 0) request.log.info({ sid: session.sid, stored: stored.length, refused: refused.length }, 'upload');
  if (wantsHtml(request.headers.accept)) {
    flash.set(session.sid, refused.map((r) => r.error));
    return reply.redirect('/', 303);
  }
  const errors = refused.map(({ filename, error }) => ({ filename, error }));
  if (stored.length > 0) return reply.status(200).send({ items: stored, errors });
  if (refused.length === 0) fail('badRequest', 'The upload held no files');
  throw new AppError(refused[0].code, errors.map((e) => e.error).join('; '), { errors });
}

function tooMany(filename: string, limit: number): Refusal {
  return { filename, code: 'tooManyFiles', error: `${filename} was not stored: a session holds at most ${limit} files` };
}

/** A Node system error (file system, network) carries the call that failed; the parser's errors do not. */
const isSystemError = (err: unknown) => typeof (err as { syscall?: unknown } | null)?.syscall === 'string';

/** The multipart parser's parts, with its refusals as answers: its limits as 413, anything else as 400. */
async function* parserPhase(open: () => AsyncIterableIterator<Multipart>): AsyncGenerator<Multipart> {
  let parts: AsyncIterator<Multipart>;
  try {
    parts = open()[Symbol.asyncIterator]();
  } catch (err) {
    throw parserError(err);
  }
  for (;;) {
    let next: IteratorResult<Multipart>;
    try {
      next = await parts.next();
    } catch (err) {
      throw parserError(err);
    }
    if (next.done) return;
    yield next.value;
  }
}

function parserError(err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'FST_FILES_LIMIT') {
    return new AppError('tooLarge', `Too many files in one upload: send at most ${MAX_FILES_PER_REQUEST} at a time`);
  }
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return new AppError('tooLarge', `Too many form fields in one upload: send at most ${MAX_FIELDS_PER_REQUEST} form fields`);
  }
  if (err instanceof AppError || isSystemError(err)) return err;
  return new AppError('badRequest', BROKEN_MULTIPART);
}
