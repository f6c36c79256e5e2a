// tus 1.0 (creation, termination) at /app/merge/tus/, behind the session, CSRF and limits of the
// multipart upload. Our own checks run first, as Fastify routes (a declared length over the limit
// is refused before a byte is sent; MAX_FILES counts uploads in progress; an upload is its
// session's only); then @tus/server takes the raw request and streams the bytes to disk. When the
// last byte is in, the file is probed and stored like a multipart upload, or refused with a reason
// (uploads/tus-finish.ts); a HEAD or PATCH that finds the bytes complete and no answer given yet
// finishes it then, and one for a stored upload learns its item.
import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server, type ServerOptions } from '@tus/server';
import { Metadata, type Upload } from '@tus/utils';
import type { AppConfig } from '../../config.js';
import type { Store } from '../../data/store.js';
import { TUS_ID, type TusUploads } from '../../files/tus-uploads.js';
import { errorCodeOf, isDiskFull } from '../../errors.js';
import type { SizedOutcome, TusFinisher, TusOutcome } from '../../uploads/tus-finish.js';
import { wouldCrossWatermark, type FreeSpace } from '../../files/disk-space.js';
import { AppError, ERRORS, fail, type ErrorCode } from '../errors.js';
import { whileServerWorks } from '../server-at-work.js';
import { csrfMatches, CSRF_HEADER, randomId, requireSession } from '../session.js';
import { APPID_PATTERN, documented, tusCreateSchema, tusOptionsSchema, tusUploadSchema } from './schemas.js';
import { megabytes } from '../../../shared/format.js';
import { displayName } from './upload-names.js';
import { refuseIfDiskLow, type UploadStoreDeps } from '../../uploads/upload-store.js';

export const TUS_PATH = '/app/merge/tus';
/**
 * A session's uploads in progress may together declare this many files of MAX_FILE_MB, held or
 * not: the widget sends three at once, and a page reloaded mid-upload leaves as many to resume.
 * Without it, one session declaring lengths it never sends would hold the disk from every other.
 */
export const SESSION_UPLOADING_FILES = 10;
/** How long a request whose client has gone may still run (a last chunk being stored). */
const CLOSED_SETTLE_MS = 2000;

export interface TusRouteDeps {
  store: Store;
  config: AppConfig;
  uploads: TusUploads;
  /** Makes a finished upload an item (or refuses it), once. */
  finisher: TusFinisher;
  /** Free bytes on the disk of a folder, for the MIN_FREE_MB watermark. */
  freeSpace: FreeSpace;
  /** DATA_DIR's disk, shared with merges and the other uploads in progress. */
  disk: UploadStoreDeps['disk'];
}

type TusRequest = Parameters<NonNullable<ServerOptions['onUploadFinish']>>[0];

/** The Node request behind @tus/server's web Request. */
const nodeRequest = (req: TusRequest): IncomingMessage | undefined =>
  (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;

/** tus answers carry our JSON errors, so a client shows the same message as for multipart. */
const tusError = (status: number, error: string, code: ErrorCode) => ({
  status_code: status,
  body: JSON.stringify({ error, code }),
});

/** An error of our own, or tus's (plain text), as the JSON body every refusal carries. */
function asJsonError(err: { status_code: number; body: string }) {
  if (err.body.startsWith('{')) return undefined;
  return tusError(err.status_code, err.body.trim() || ERRORS.tusRefused.message, 'tusRefused');
}

export async function tusRoutes(app: FastifyInstance, deps: TusRouteDeps): Promise<void> {
  const { config, uploads } = deps;
  const limitMb = megabytes(config.maxFileBytes);
  // Ids chosen by our creation check, handed to tus's naming function for the same request.
  const newIds = new WeakMap<IncomingMessage, string>();

  const tus = new Server({
    path: TUS_PATH,
    datastore: uploads.datastore,
    relativeLocation: true,
    maxSize: config.maxFileBytes,
    // Same origin only: no Access-Control-Allow-Origin for anyone.
    allowedOrigins: [],
    namingFunction: (req) => {
      const id = newIds.get(nodeRequest(req) as IncomingMessage);
      if (!id) throw tusError(500, ERRORS.internal.message, 'internal');
      return id;
    },
    onUploadCreate: async (_req, upload) => {
      const u = uploads.get(upload.id) as NonNullable<ReturnType<TusUploads['get']>>;
      return { metadata: { filename: u.filename, appid: u.appid, sid: u.sid } };
    },
    onUploadFinish: (req, upload) => finish(req, upload),
    onResponseError: (_req, err) => diskFullAnswer(err),
  });

  /**
   * A write that failed mid-PATCH: the file store does not always keep the error's code, so a
   * server error while DATA_DIR's disk has (almost) no room left is told as a full disk too.
   */
  async function diskFullAnswer(err: Error | { status_code: number; body: string }) {
    if ('status_code' in err && err.status_code < 500) return asJsonError(err);
    const nearlyFull = () =>
      wouldCrossWatermark(deps.freeSpace, config.dataDir, 0, Math.max(config.minFreeBytes, 1024 * 1024));
    if (isDiskFull(err) || (await nearlyFull()))
      return tusError(ERRORS['disk-full'].status, ERRORS['disk-full'].message, 'disk-full');
    if ('status_code' in err) return asJsonError(err);
    return tusError(500, ERRORS.internal.message, 'internal');
  }

  /**
   * The last byte is in: probe and store as an item, or refuse. A refused file's bytes go; a
   * store cut by a shutdown or a failure keeps them for the next request (tus-finish.ts).
   */
  async function finish(req: TusRequest, upload: Upload) {
    const socket = (nodeRequest(req) as IncomingMessage).socket;
    const outcome = await whileServerWorks(socket, config.idleTimeoutMs, (signal) =>
      deps.finisher.finish(upload.id, signal),
    ).catch(outcomeOfError);
    if (outcome.status >= 400) throw { status_code: outcome.status, body: outcome.body };
    // A creation that carried all the bytes keeps its 201 (and Location); a PATCH says 200 with the item.
    return req.method === 'POST'
      ? { body: outcome.body }
      : { status_code: 200, body: outcome.body, headers: { 'Content-Type': 'application/json' } };
  }

  /**
   * HEAD or PATCH for an upload whose bytes are all in: its outcome, once it is stored or refused
   * (finished now if no request had finished it, the server having died in between); undefined
   * for an upload still receiving bytes, which tus answers.
   */
  async function completeOutcome(id: string): Promise<SizedOutcome | undefined> {
    const done = await deps.finisher.finished(id);
    if (done) return done;
    const size = uploads.get(id)?.size ?? 0;
    if (!deps.finisher.isFinishing(id) && !(await uploads.isComplete(id))) return undefined;
    // No client signal: a HEAD that goes away does not undo a store under way.
    // A failed store counts the upload as in progress again, its length known once more.
    return deps.finisher
      .finish(id)
      .catch((err: unknown) => ({ ...outcomeOfError(err), size: uploads.get(id)?.size ?? size }));
  }

  /**
   * A complete upload's answer. A PATCH gets the multipart upload's status and body. A HEAD has
   * no body, so the outcome goes in `Upload-Outcome` (the JSON body, URI-encoded) and
   * `Upload-Outcome-Status`: 200 with the upload complete once it is settled, 423 (ask again
   * later) while storing it fails and its bytes wait.
   */
  function sendOutcome(request: FastifyRequest, reply: FastifyReply, o: SizedOutcome) {
    void reply.header('Tus-Resumable', '1.0.0').header('Cache-Control', 'no-store');
    if (request.method === 'PATCH') {
      if (o.status < 300) void reply.header('Upload-Offset', String(o.size));
      return reply.status(o.status).type('application/json').send(o.body);
    }
    return reply
      .status(o.status >= 500 ? 423 : 200)
      .header('Upload-Offset', String(o.size))
      .header('Upload-Length', String(o.size))
      .header('Upload-Outcome-Status', String(o.status))
      .header('Upload-Outcome', encodeURIComponent(o.body))
      .send();
  }

  /** A thrown finish as the answer it gives: a code of the one table with its own status and words. */
  function outcomeOfError(err: unknown): TusOutcome {
    const code = errorCodeOf(err) ?? 'internal';
    return { status: ERRORS[code].status, body: JSON.stringify({ error: ERRORS[code].message, code }) };
  }

  /** POST: the declared length and the session's count are checked before tus creates anything. */
  async function checkCreation(request: FastifyRequest): Promise<string> {
    const session = requireSession(request);
    const meta = parseMetadata(request.headers['upload-metadata']);
    const filename = displayName(meta.filename ?? undefined);
    const appid = meta.appid ?? config.appId;
    if (!new RegExp(APPID_PATTERN).test(appid)) fail('badRequest', 'The appid metadata is not valid');
    const length = Number(request.headers['upload-length']);
    if (request.headers['upload-length'] === undefined || !Number.isSafeInteger(length) || length < 0) {
      fail('badRequest', `${filename}: the upload must declare its length (Upload-Length)`);
    }
    if (length > config.maxFileBytes) fail('tooLarge', `${filename} is larger than the ${limitMb} MB limit`);
    const sessionLimit = config.maxFileBytes * SESSION_UPLOADING_FILES;
    if (uploads.declaredBy(session.sid) + length > sessionLimit) {
      fail(
        'disk-full',
        `${filename} was not started: this session's unfinished uploads may hold at most ${megabytes(sessionLimit)} MB; finish or remove some first`,
      );
    }

    // Its declared length is held from now on (synchronously, so creations at once all count),
    // and must fit beside everything else held: else nothing is created.
    const id = randomId(16);
    uploads.reserve({ id, sid: session.sid, appid, filename, size: length });
    try {
      await refuseIfDiskLow(deps, 0);
    } catch (err) {
      await uploads.discard(id);
      throw err;
    }
    const items = await deps.store.countItems(session.sid);
    if (items + uploads.countFor(session.sid) > config.maxFiles) {
      await uploads.discard(id);
      fail('tooManyFiles', `${filename} was not stored: a session holds at most ${config.maxFiles} files`);
    }
    return id;
  }

  /** HEAD, PATCH, DELETE: only the session that created the upload may reach it. */
  async function checkOwner(request: FastifyRequest): Promise<string> {
    const session = requireSession(request);
    if (!csrfMatches(session, request.headers[CSRF_HEADER])) fail('csrf');
    const id = (request.params as { id?: string }).id ?? '';
    if (!TUS_ID.test(id) || (await deps.finisher.ownerOf(id)) !== session.sid) fail('notFound');
    return id;
  }

  /**
   * A PATCH to an upload whose hold lapsed takes room for the rest of it again first, or is a 507
   * with its bytes so far kept for a later resume.
   */
  async function holdAgain(id: string): Promise<void> {
    if (uploads.holds(id)) return;
    const u = uploads.get(id) as NonNullable<ReturnType<TusUploads['get']>>;
    const received = (await stat(uploads.dataPath(id)).catch(() => undefined))?.size ?? 0;
    uploads.hold(id, Math.max(0, u.size - received));
    try {
      await refuseIfDiskLow(deps, 0);
    } catch (err) {
      uploads.lapse(id);
      throw err;
    }
  }

  /** Hand the request over while it keeps the upload's hold on the disk. */
  async function handOverHolding(id: string, request: FastifyRequest, reply: FastifyReply) {
    const done = uploads.busy(id);
    try {
      await handOver(request, reply);
    } finally {
      done();
    }
  }

  async function handOver(request: FastifyRequest, reply: FastifyReply) {
    reply.hijack();
    // A PATCH that trickles is cut; tus keeps the bytes that came, for a resume. One whose body
    // is all in waits for its file to be stored, however long that takes.
    const stopWatch =
      request.method === 'PATCH'
        ? cutWhenSlow(request.raw.socket, config.slowUploadWindowMs, () => request.raw.complete)
        : () => {};
    try {
      await handOverWatched(request, reply);
    } finally {
      stopWatch();
    }
  }

  async function handOverWatched(request: FastifyRequest, reply: FastifyReply) {
    const handled = tus.handle(request.raw, reply.raw);
    // When the client has gone, tus may never hear that its answer was delivered: stop waiting
    // once the connection is closed and tus had a moment to finish its own work.
    const gone = once(reply.raw, 'close').then(() => delay(CLOSED_SETTLE_MS));
    await Promise.race([handled, gone]);
  }

  // tus streams the PATCH body itself: Fastify must not read it.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  const routeConfig = {
    upload: true,
    rateLimit: { max: Math.max(config.tusRateLimit, 4 * config.maxFiles), timeWindow: '1 minute' },
  };

  const create = async (request: FastifyRequest, reply: FastifyReply) => {
    const id = await checkCreation(request);
    newIds.set(request.raw, id);
    await handOverHolding(id, request, reply);
    // A creation tus refused (bad headers) holds no place.
    if (reply.raw.statusCode !== 201 && uploads.get(id)) await uploads.discard(id);
  };
  const createOptions = { ...documented(tusCreateSchema(limitMb)), config: routeConfig };
  app.post(TUS_PATH, createOptions, create);
  app.post(`${TUS_PATH}/`, createOptions, create);
  app.route({
    method: ['HEAD', 'PATCH', 'DELETE'],
    url: `${TUS_PATH}/:id`,
    ...documented(tusUploadSchema),
    config: routeConfig,
    handler: async (request, reply) => {
      const id = await checkOwner(request);
      const complete = request.method === 'DELETE' ? undefined : await completeOutcome(id);
      if (complete) return sendOutcome(request, reply, complete);
      if (request.method !== 'PATCH') await handOver(request, reply);
      else {
        await holdAgain(id);
        await handOverHolding(id, request, reply);
      }
      if (request.method === 'DELETE' && reply.raw.statusCode === 204) await uploads.discard(id);
    },
  });
  app.options(TUS_PATH, documented(tusOptionsSchema), handOver);
  app.options(`${TUS_PATH}/`, documented(tusOptionsSchema), handOver);
}

/** Under this many bytes in a window, an upload is too slow to be worth a connection. */
export const SLOW_UPLOAD_BYTES = 1024;

/**
 * Close the connection when fewer than SLOW_UPLOAD_BYTES arrive in any `windowMs` until the body
 * is all in (`bodyDone`): the idle timeout alone lets a byte every few seconds hold a request
 * open for an hour, while a request that has sent everything is only waiting for its answer.
 */
export function cutWhenSlow(
  socket: Socket | null | undefined,
  windowMs: number,
  bodyDone: () => boolean,
): () => void {
  if (!(socket instanceof Socket) || windowMs <= 0) return () => {};
  let last = socket.bytesRead;
  const timer = setInterval(() => {
    if (bodyDone()) return clearInterval(timer);
    const now = socket.bytesRead;
    if (now - last < SLOW_UPLOAD_BYTES) socket.destroy();
    last = now;
  }, windowMs);
  timer.unref();
  return () => clearInterval(timer);
}

function parseMetadata(header: string | string[] | undefined): Record<string, string | null> {
  if (header === undefined) return {};
  try {
    return Metadata.parse(String(header));
  } catch {
    throw new AppError('badRequest', 'The Upload-Metadata header is not valid');
  }
}
