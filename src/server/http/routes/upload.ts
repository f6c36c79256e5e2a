// POST /app/merge/upload: stream each part to tmp/, probe it with the engine, and only then store
// it under a new random name with the real format. A refused file leaves nothing behind.
import { createWriteStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { InputError, type ProbeResult, type Tools } from '../../../engine/index.js';
import type { AudioItem } from '../../../shared/types.js';
import type { AppConfig } from '../../config.js';
import { AppError, fail, type ErrorCode } from '../errors.js';
import type { Flash } from '../flash.js';
import { csrfMatches, CSRF_HEADER, randomId, requireSession } from '../session.js';
import { uploadRef, type FileStorage } from '../../files/storage.js';
import type { ItemRow, Store } from '../../data/store.js';
import { displayName, isBrokenMultipart, megabytes, wantsHtml } from './upload-names.js';
import { APPID_PATTERN, toAudioItem } from './items.js';

export type Prober = (file: string, opts: { tools?: Tools; displayName?: string }) => Promise<ProbeResult>;

export interface UploadRouteDeps {
  store: Store;
  files: FileStorage;
  config: AppConfig;
  tools: Tools;
  probe: Prober;
  now: () => number;
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

const SAFE_FORMAT = /^[a-z0-9]{1,10}$/;

const removeQuietly = (file: string) => unlink(file).catch(() => {});

export async function uploadRoutes(app: FastifyInstance, deps: UploadRouteDeps): Promise<void> {
  const { store, files, config } = deps;
  const limitMb = megabytes(config.maxFileBytes);

  app.post(
    '/app/merge/upload',
    { config: { csrfInForm: true, rateLimit: { max: config.uploadRateLimit, timeWindow: '1 minute' } } },
    async (request, reply) => {
      if (!request.isMultipart()) fail('badRequest', 'Send the files as multipart/form-data');
      const session = requireSession(request);
      // The onRequest hook has checked the header when there is one; otherwise `_csrf` must come first.
      let csrfOk = request.headers[CSRF_HEADER] !== undefined;
      let appid = config.appId;
      const probed: Probed[] = [];
      const refused: Refusal[] = [];
      const inFlight = new Set<string>();
      const stored: AudioItem[] = [];
      try {
        const parts = request.parts({
          limits: {
            fileSize: config.maxFileBytes,
            files: MAX_FILES_PER_REQUEST,
            fields: MAX_FIELDS_PER_REQUEST,
            fieldSize: 1024,
            parts: MAX_FILES_PER_REQUEST + MAX_FIELDS_PER_REQUEST,
          },
        });
        for await (const part of parts) {
          if (part.type === 'field') {
            if (part.fieldname === '_csrf') csrfOk ||= csrfMatches(session, part.value);
            if (part.fieldname === 'appid') appid = String(part.value);
            continue;
          }
          const filename = displayName(part.filename);
          if (!csrfOk) {
            part.file.resume();
            fail('csrf');
          }
          if (part.fieldname !== 'files' || part.filename === '') {
            // An unknown part, or the empty part a form sends when no file was chosen.
            part.file.resume();
            continue;
          }
          if ((await store.countItems(session.sid)) + probed.length >= config.maxFiles) {
            part.file.resume();
            refused.push(tooMany(filename, config.maxFiles));
            continue;
          }
          const tmp = files.scratchPath(`${randomId(16)}.upload`);
          inFlight.add(tmp);
          await pipeline(part.file, createWriteStream(tmp, { flags: 'wx' }));
          if (part.file.truncated) {
            await removeQuietly(tmp);
            inFlight.delete(tmp);
            refused.push({ filename, code: 'tooLarge', error: `${filename} is larger than the ${limitMb} MB limit` });
            continue;
          }
          try {
            const probe = await deps.probe(tmp, { tools: deps.tools, displayName: filename });
            if (!SAFE_FORMAT.test(probe.format)) {
              throw new InputError(filename, `its container (${probe.format}) is not supported`);
            }
            probed.push({ tmp, filename, probe, size: (await stat(tmp)).size });
          } catch (err) {
            await removeQuietly(tmp);
            inFlight.delete(tmp);
            if (!(err instanceof InputError)) throw err;
            refused.push({ filename, code: 'notAudio', error: `${filename} was not stored: ${err.reason}` });
          }
        }
        if (!csrfOk) fail('csrf');
        if (!new RegExp(APPID_PATTERN).test(appid)) fail('badRequest', 'The appid field is not valid');

        for (const p of probed) {
          const item = await storeOne(deps, session.sid, appid, p);
          inFlight.delete(p.tmp);
          if (item) stored.push(toAudioItem(item));
          else refused.push(tooMany(p.filename, config.maxFiles));
        }
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_FILES_LIMIT') {
          throw new AppError('tooLarge', `Too many files in one upload: send at most ${MAX_FILES_PER_REQUEST} at a time`);
        }
        if ((err as { code?: string }).code === 'FST_FIELDS_LIMIT' || (err as { code?: string }).code === 'FST_PARTS_LIMIT') {
          throw new AppError('tooLarge', `Too many form fields in one upload: send at most ${MAX_FIELDS_PER_REQUEST} form fields`);
        }
        if (isBrokenMultipart(err)) fail('badRequest', 'The upload is not valid multipart/form-data (cut short or malformed)');
        throw err;
      } finally {
        await Promise.all([...inFlight].map(removeQuietly));
      }
      if (stored.length > 0) request.log.info({ sid: session.sid, stored: stored.length, refused: refused.length }, 'upload');
      if (wantsHtml(request.headers.accept)) {
        deps.flash.set(session.sid, refused.map((r) => r.error));
        return reply.redirect('/', 303);
      }
      return answer(reply, stored, refused);
    },
  );
}

function tooMany(filename: string, limit: number): Refusal {
  return { filename, code: 'tooManyFiles', error: `${filename} was not stored: a session holds at most ${limit} files` };
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
    createdAt: deps.now(),
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

function answer(reply: FastifyReply, items: AudioItem[], refused: Refusal[]) {
  const errors = refused.map(({ filename, error }) => ({ filename, error }));
  if (items.length > 0) return reply.status(200).send({ items, errors });
  if (refused.length === 0) fail('badRequest', 'The upload held no files');
  throw new AppError(refused[0].code, errors.map((e) => e.error).join('; '), { errors });
}
