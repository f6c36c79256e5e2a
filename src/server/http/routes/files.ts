// GET /upload/{sid}/{newfilename}.{format} and GET /results/{sid}/{id}.{format}, with Range.
// The file is found by looking the names up in the database; its bytes come from FileStorage only.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERRORS, fail } from '../errors.js';
import { BIDI_CONTROLS } from '../../jobs/job-messages.js';
import { contentTypeFor, parseRange } from '../../files/range.js';
import { requireSession } from '../session.js';
import { documented, resultFileSchema, uploadFileSchema } from './schemas.js';
import { resultRef, uploadRef, type FileRef, type FileStorage } from '../../files/storage.js';
import type { Store } from '../../data/store.js';

export interface FilesRouteDeps {
  store: Store;
  files: FileStorage;
}

const STORED_NAME = /^([A-Za-z0-9_-]{1,128})\.([a-z0-9]{1,10})$/;

interface FileParams {
  sid: string;
  file: string;
}

async function sendFile(
  reply: FastifyReply,
  files: FileStorage,
  ref: FileRef,
  contentType: string,
  rangeHeader: string | undefined,
): Promise<FastifyReply> {
  const info = await files.stat(ref);
  if (!info) fail('notFound');
  const range = parseRange(rangeHeader, info.size);
  reply
    .header('accept-ranges', 'bytes')
    .header('last-modified', info.modifiedAt.toUTCString())
    .header('cache-control', 'private, no-cache')
    .header('x-content-type-options', 'nosniff');
  if (range.kind === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${info.size}`)
      .send({ error: ERRORS.rangeNotSatisfiable.message, code: 'rangeNotSatisfiable' });
  }
  reply.header('content-type', contentType);
  if (range.kind === 'partial') {
    return reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
      .header('content-length', range.end - range.start + 1)
      .send(await files.read(ref, range));
  }
  return reply
    .status(200)
    .header('content-length', info.size)
    .send(await files.read(ref));
}

/** RFC 6266 attachment with an ASCII fallback and the UTF-8 name. */
export function attachment(stored: string): string {
  const name = stored.replace(BIDI_CONTROLS, '');
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * The stored file a request names, found by `find` under the caller's own session: a path of
 * another session is refused, a name that is not stored (or stored in another format) is not found.
 */
async function ownStoredFile<T extends { format: string }>(
  request: FastifyRequest<{ Params: FileParams }>,
  find: (sid: string, storedName: string) => Promise<T | undefined>,
): Promise<T> {
  const session = requireSession(request);
  const { sid, file } = request.params;
  if (sid !== session.sid) fail('foreignFile');
  const m = STORED_NAME.exec(file);
  if (!m) fail('notFound');
  const found = await find(session.sid, m[1]);
  if (!found || found.format !== m[2]) fail('notFound');
  return found;
}

export async function filesRoutes(app: FastifyInstance, { store, files }: FilesRouteDeps): Promise<void> {
  app.get<{ Params: FileParams }>(
    '/upload/:sid/:file',
    documented(uploadFileSchema),
    async (request, reply) => {
      const item = await ownStoredFile(request, (sid, name) => store.itemByStoredName(sid, name));
      return sendFile(reply, files, uploadRef(item), contentTypeFor(item.format), request.headers.range);
    },
  );

  app.get<{ Params: FileParams; Querystring: { download?: string } }>(
    '/results/:sid/:file',
    documented(resultFileSchema),
    async (request, reply) => {
      const result = await ownStoredFile(request, (sid, id) => store.getResult(sid, id));
      if (request.query.download === '1')
        reply.header('content-disposition', attachment(result.downloadName));
      return sendFile(reply, files, resultRef(result), contentTypeFor(result.format), request.headers.range);
    },
  );
}
