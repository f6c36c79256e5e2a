// POST /app/merge/upload: stream each part to tmp/, probe it with the engine, and only then store
// it under a new random name with the real format. A refused file leaves nothing behind.
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AudioItem } from '../../../shared/types.js';
import { AppError, fail } from '../errors.js';
import type { Flash } from '../flash.js';
import { csrfMatches, CSRF_HEADER, randomId, requireSession } from '../session.js';
import { displayName, isBrokenMultipart, megabytes, wantsHtml } from './upload-names.js';
import { APPID_PATTERN, toAudioItem } from './items.js';
import { isRefusal, keepUpload, probeUpload, removeQuietly, tooMany, type Probed, type Refusal, type UploadStoreDeps } from './upload-store.js';

export type { Prober } from './upload-store.js';

export interface UploadRouteDeps extends UploadStoreDeps {
  /** Where a plain form post's refusals wait for the page it is redirected to. */
  flash: Flash;
}

/** Files one request may carry; more are refused as a whole (the session limit is MAX_FILES). */
export const MAX_FILES_PER_REQUEST = 100;
/** Form fields one request may carry (appid, _csrf and a few a host page might add). */
const MAX_FIELDS_PER_REQUEST = 20;

/**
 * The multipart parser's buffer, above the largest chunk a socket delivers (64 KiB). With the
 * default 16 KiB a chunk fills it, and when that chunk also ends a part the parser skips (no
 * Content-Disposition, a bare CR/LF in its name) busboy ends its inner parser while waiting for
 * it to drain, and never finishes: the request got no answer (issue 14).
 */
const PARSER_HIGH_WATER_MARK = 1024 * 1024;

export async function uploadRoutes(app: FastifyInstance, deps: UploadRouteDeps): Promise<void> {
  const { store, storage, config } = deps;
  const limitMb = megabytes(config.maxFileBytes);

  app.post(
    '/app/merge/upload',
    { config: { csrfInForm: true, upload: true, rateLimit: { max: config.uploadRateLimit, timeWindow: '1 minute' } } },
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
          highWaterMark: PARSER_HIGH_WATER_MARK,
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
          if (store.countItems(session.sid) + (deps.heldElsewhere?.(session.sid) ?? 0) + probed.length >= config.maxFiles) {
            part.file.resume();
            refused.push(tooMany(filename, config.maxFiles));
            continue;
          }
          const tmp = path.join(storage.tmpDir, `${randomId(16)}.upload`);
          inFlight.add(tmp);
          await pipeline(part.file, createWriteStream(tmp, { flags: 'wx' }));
          if (part.file.truncated) {
            await removeQuietly(tmp);
            inFlight.delete(tmp);
            refused.push({ filename, code: 'tooLarge', error: `${filename} is larger than the ${limitMb} MB limit` });
            continue;
          }
          const p = await probeUpload(deps, tmp, filename);
          if (isRefusal(p)) {
            inFlight.delete(tmp);
            refused.push(p);
          } else probed.push(p);
        }
        if (!csrfOk) fail('csrf');
        if (!new RegExp(APPID_PATTERN).test(appid)) fail('badRequest', 'The appid field is not valid');

        for (const p of probed) {
          const kept = await keepUpload(deps, session.sid, appid, p);
          inFlight.delete(p.tmp);
          if (isRefusal(kept)) refused.push(kept);
          else stored.push(toAudioItem(kept));
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

function answer(reply: FastifyReply, items: AudioItem[], refused: Refusal[]) {
  const errors = refused.map(({ filename, error }) => ({ filename, error }));
  if (items.length > 0) return reply.status(200).send({ items, errors });
  if (refused.length === 0) fail('badRequest', 'The upload held no files');
  throw new AppError(refused[0].code, errors.map((e) => e.error).join('; '), { errors });
}
