// POST /app/merge/upload: stream each part to scratch, probe it with the engine, and only then
// store it under a new random name with the real format. A refused file leaves nothing behind.
// The handler runs in named phases: receive the parts, check the form, store what was probed,
// answer.
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartFile, Multipart } from '@fastify/multipart';
import type { AudioItem } from '../../../shared/types.js';
import { AppError, fail } from '../errors.js';
import type { Flash } from '../flash.js';
import { csrfMatches, CSRF_HEADER, randomId, requireSession } from '../session.js';
import type { SessionRow } from '../../data/store.js';
import { megabytes } from '../../../shared/format.js';
import { displayName, wantsHtml } from './upload-names.js';
import { toAudioItem } from '../../uploads/audio-item.js';
import { whileServerWorks } from '../server-at-work.js';
import { APPID_PATTERN, documented, uploadSchema } from './schemas.js';
import type { Metrics } from '../../ops/metrics.js';
import {
  isRefusal,
  keepUpload,
  probeUpload,
  refuseIfDiskLow,
  removeQuietly,
  roomFor,
  tooMany,
  type Probed,
  type Refusal,
  type UploadStoreDeps,
} from '../../uploads/upload-store.js';

export type { Prober } from '../../uploads/upload-store.js';

export interface UploadRouteDeps extends UploadStoreDeps {
  /** Where a plain form post's refusals wait for the page it is redirected to. */
  flash: Flash;
  /** Counts each file kept or refused. */
  metrics?: Pick<Metrics, 'upload'>;
}

/** Files one request may carry; more are refused as a whole (the session limit is MAX_FILES). */
export const MAX_FILES_PER_REQUEST = 100;
/** Form fields one request may carry (appid, _csrf and a few a host page might add). */
const MAX_FIELDS_PER_REQUEST = 20;

/** What one upload request has gathered so far. */
interface Upload {
  session: SessionRow;
  csrfOk: boolean;
  appid: string;
  probed: Probed[];
  refused: Refusal[];
  /** Scratch files not yet stored or removed: removed whatever happens. */
  inFlight: Set<string>;
  /** Runs the server's own work (probing, storing) with the connection's idle timeout held. */
  atWork: <T>(work: (signal: AbortSignal) => Promise<T>) => Promise<T>;
}

const BROKEN_MULTIPART = 'The upload is not valid multipart/form-data (cut short or malformed)';
/**
 * The multipart parser's buffer, above the largest chunk a socket delivers (64 KiB). With the
 * default 16 KiB a chunk fills it, and when that chunk also ends a part the parser skips (no
 * Content-Disposition, a bare CR/LF in its name) busboy ends its inner parser while waiting for
 * it to drain, and never finishes: the request got no answer (issue 14).
 */
const PARSER_HIGH_WATER_MARK = 1024 * 1024;

export async function uploadRoutes(app: FastifyInstance, deps: UploadRouteDeps): Promise<void> {
  app.post(
    '/app/merge/upload',
    {
      ...documented(uploadSchema(MAX_FILES_PER_REQUEST)),
      config: {
        csrfInForm: true,
        upload: true,
        rateLimit: { max: deps.config.uploadRateLimit, timeWindow: '1 minute' },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) fail('badRequest', 'Send the files as multipart/form-data');
      await refuseIfDiskLow(deps, Number(request.headers['content-length']) || 0);
      const upload: Upload = {
        session: requireSession(request),
        // The onRequest hook has checked the header when there is one; otherwise `_csrf` must come first.
        csrfOk: request.headers[CSRF_HEADER] !== undefined,
        appid: deps.config.appId,
        probed: [],
        refused: [],
        inFlight: new Set(),
        atWork: (work) => whileServerWorks(request.raw.socket, deps.config.idleTimeoutMs, work),
      };
      let stored: AudioItem[];
      try {
        await receiveParts(request, upload, deps);
        checkForm(upload);
        stored = await storeProbed(upload, deps);
      } finally {
        await Promise.all([...upload.inFlight].map(removeQuietly));
      }
      for (const item of stored) deps.metrics?.upload('accepted', item.size ?? 0);
      upload.refused.forEach(() => deps.metrics?.upload('refused', 0));
      return respond(request, reply, deps.flash, upload, stored);
    },
  );
}

/** Phase 1: read the form's fields and receive each file part into scratch, probed. */
async function receiveParts(request: FastifyRequest, upload: Upload, deps: UploadRouteDeps): Promise<void> {
  for await (const part of parserPhase(() =>
    request.parts({
      highWaterMark: PARSER_HIGH_WATER_MARK,
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
  if (
    (await store.countItems(upload.session.sid)) + upload.probed.length >=
    roomFor(deps, upload.session.sid)
  ) {
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
    ? {
        filename,
        code: 'tooLarge' as const,
        error: `${filename} is larger than the ${megabytes(config.maxFileBytes)} MB limit`,
      }
    : await probeReceived(upload, tmp, filename, deps);
  if (refusal) {
    await removeQuietly(tmp);
    upload.inFlight.delete(tmp);
    upload.refused.push(refusal);
  }
}

/** Probe a received file: kept for storing, or the reason it is refused. */
async function probeReceived(
  upload: Upload,
  tmp: string,
  filename: string,
  deps: UploadRouteDeps,
): Promise<Refusal | undefined> {
  const p = await upload.atWork((signal) => probeUpload(deps, tmp, filename, signal, upload.session.sid));
  if (isRefusal(p)) return p;
  upload.probed.push(p);
  return undefined;
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
    const kept = await upload.atWork(() => keepUpload(deps, upload.session.sid, upload.appid, p));
    upload.inFlight.delete(p.tmp);
    if (isRefusal(kept)) upload.refused.push(kept);
    else stored.push(toAudioItem(kept));
  }
  return stored;
}

/** Phase 4: JSON for scripts; a plain form post goes back to the page, its refusals shown there once. */
function respond(
  request: FastifyRequest,
  reply: FastifyReply,
  flash: Flash,
  upload: Upload,
  stored: AudioItem[],
) {
  const { session, refused } = upload;
  if (stored.length > 0)
    request.log.info({ sid: session.sid, stored: stored.length, refused: refused.length }, 'upload');
  if (wantsHtml(request.headers.accept)) {
    flash.set(
      session.sid,
      refused.map((r) => r.error),
    );
    return reply.redirect('/', 303);
  }
  const errors = refused.map(({ filename, error }) => ({ filename, error }));
  if (stored.length > 0) return reply.status(200).send({ items: stored, errors });
  if (refused.length === 0) fail('badRequest', 'The upload held no files');
  throw new AppError(refused[0].code, errors.map((e) => e.error).join('; '), { errors });
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
    return new AppError(
      'tooLarge',
      `Too many files in one upload: send at most ${MAX_FILES_PER_REQUEST} at a time`,
    );
  }
  if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return new AppError(
      'tooLarge',
      `Too many form fields in one upload: send at most ${MAX_FIELDS_PER_REQUEST} form fields`,
    );
  }
  if (err instanceof AppError || isSystemError(err)) return err;
  return new AppError('badRequest', BROKEN_MULTIPART);
}
