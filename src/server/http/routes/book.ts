// The book a session is making, beyond its items: its cover (POST /app/merge/cover, GET it back,
// POST /app/merge/deleteCover) and the person's choices (saveChoices, GET choices). Both live
// in the session's file storage, so they go with the session and never reach another's.
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkCover, COVER_LIMITS, coverDecodes, type Tools } from '../../../engine/index.js';
import { choicesRef, coverRef, type FileRef, type FileStorage } from '../../files/storage.js';
import { codePoints } from '../../../shared/typed-text.js';
import { checkMergeOptions } from '../../jobs/merge-options.js';
import { fail } from '../errors.js';
import { requireSession } from '../session.js';
import { sendStoredCover } from './stored-cover.js';
import {
  choicesSchema,
  coverSchema,
  coverUploadSchema,
  deleteCoverSchema,
  documented,
  saveChoicesSchema,
} from './schemas.js';

/**
 * What saveChoices keeps at most: characters (code points) of JSON text, counted as mergemp3
 * counts the details, so choices mergemp3 takes (every detail at its limit, in any script) fit.
 */
export const MAX_CHOICES_CHARS = 16 * 1024;

/** All of a stream, or undefined as soon as it passes `limit` bytes (the rest is drained, not kept). */
async function readUpTo(stream: Readable, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total <= limit) chunks.push(chunk);
  }
  return total <= limit ? Buffer.concat(chunks, total) : undefined;
}

/** Store `data` under `ref` by way of a scratch file (storage takes finished files only). */
async function putBytes(files: FileStorage, ref: FileRef, data: Buffer | string): Promise<void> {
  const tmp = files.scratchPath(`book-${randomBytes(8).toString('hex')}`);
  try {
    await writeFile(tmp, data);
    await files.put(ref, tmp);
  } finally {
    await rm(tmp, { force: true });
  }
}

/**
 * The one `file` part of a cover upload, checked as every cover is and decoded once by ffmpeg (a
 * picture whose header is right but which does not decode would fail a merge later); a 400
 * saying why otherwise.
 */
async function receivedCover(request: FastifyRequest, tools: Tools): Promise<Buffer> {
  if (!request.isMultipart()) fail('badRequest', 'Send the cover as multipart/form-data');
  const part = await request.file({ limits: { files: 1, fileSize: COVER_LIMITS.bytes + 1, fields: 0 } });
  if (!part || part.fieldname !== 'file') fail('badRequest', 'Send the cover as a part named "file"');
  const data = await readUpTo(part.file, COVER_LIMITS.bytes);
  const name = part.filename || 'the cover';
  if (!data || part.file.truncated) fail('badCover', `${name}: cover is larger than 10 MB`);
  const checked = checkCover(data);
  if (!checked.ok) fail('badCover', `${name}: ${checked.reason}`);
  if (!(await coverDecodes(data, { tools }))) fail('badCover', `${name}: cover does not decode as an image`);
  return data;
}

async function readStored(files: FileStorage, ref: FileRef): Promise<Buffer | undefined> {
  if (!(await files.stat(ref))) return undefined;
  return readUpTo(await files.read(ref), COVER_LIMITS.bytes);
}

export async function bookRoutes(
  app: FastifyInstance,
  { files, tools }: { files: FileStorage; tools: Tools },
): Promise<void> {
  app.post('/app/merge/cover', documented(coverUploadSchema), async (request) => {
    const session = requireSession(request);
    await putBytes(files, coverRef(session.sid), await receivedCover(request, tools));
    request.log.info('cover set');
    return { ok: true };
  });

  app.get<{ Querystring: { probe?: string } }>(
    '/app/merge/cover',
    documented(coverSchema),
    async (request, reply) => {
      const session = requireSession(request);
      // A page asking whether there is one: "none" is an answer, not an error a browser logs.
      if (request.query.probe !== undefined && !(await files.stat(coverRef(session.sid))))
        return reply.status(204).header('cache-control', 'no-store').send();
      // The cover may change at any time: the browser asks again each time, and the ETag spares
      // the bytes when it has not.
      return sendStoredCover(reply, files, coverRef(session.sid), {
        cacheControl: 'private, no-cache',
        missing: 'This session has no cover',
        ifNoneMatch: request.headers['if-none-match'],
      });
    },
  );

  app.post('/app/merge/deleteCover', documented(deleteCoverSchema), async (request) => {
    const session = requireSession(request);
    await files.remove(coverRef(session.sid));
    return { ok: true };
  });

  app.post<{ Body: { appid: string; choices: unknown } }>(
    '/app/merge/saveChoices',
    { schema: saveChoicesSchema, serializerCompiler: documented(saveChoicesSchema).serializerCompiler },
    async (request) => {
      const session = requireSession(request);
      const { appid, choices } = request.body;
      const text = JSON.stringify(choices);
      if (codePoints(text) > MAX_CHOICES_CHARS) fail('choicesTooLarge');
      const checked = checkMergeOptions(choices);
      if (!checked.ok) fail('badRequest', checked.message);
      await putBytes(files, choicesRef(session.sid, appid), text);
      return { ok: true };
    },
  );

  app.get<{ Querystring: { appid: string } }>(
    '/app/merge/choices',
    { schema: choicesSchema, serializerCompiler: documented(choicesSchema).serializerCompiler },
    async (request, reply) => {
      const session = requireSession(request);
      const data = await readStored(files, choicesRef(session.sid, request.query.appid));
      return reply.type('application/json; charset=utf-8').send(data ?? '{}');
    },
  );
}
