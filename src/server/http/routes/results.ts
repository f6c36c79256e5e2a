// The merged results: POST /app/merge/deleteResult {"id"} removes a result's row, its file and its
// cover; GET /app/merge/resultCover/{id} serves the cover kept with a result, to its session only.
import type { FastifyInstance } from 'fastify';
import { COVER_LIMITS, imageShape } from '../../../engine/index.js';
import type { ResultRow, Store } from '../../data/store.js';
import { resultRef, type FileRef, type FileStorage } from '../../files/storage.js';
import { fail } from '../errors.js';
import { requireSession } from '../session.js';
import { deleteResultSchema, documented, resultCoverSchema } from './schemas.js';

/** The result's own copy of its cover, when it has one. */
export const resultCoverRef = (result: Pick<ResultRow, 'sid' | 'cover'>): FileRef | undefined =>
  result.cover ? resultRef({ sid: result.sid, file: result.cover }) : undefined;

/**
 * The stored cover's bytes, up to the cover limit; undefined when it is over it or not there,
 * deleted with its result between the row's look-up and the read included.
 */
async function readCover(files: FileStorage, ref: FileRef): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of await files.read(ref)) {
      total += (chunk as Buffer).length;
      if (total > COVER_LIMITS.bytes) return undefined;
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return Buffer.concat(chunks, total);
}

export async function resultsRoutes(
  app: FastifyInstance,
  { store, files }: { store: Store; files: FileStorage },
): Promise<void> {
  /** The session's own result by id: 404 when there is none, 403 when it is another session's. */
  async function ownResult(sid: string, id: string): Promise<ResultRow> {
    const found = await store.resultById(id);
    if (!found) fail('notFound');
    if (found.sid !== sid) fail('foreignFile');
    return found;
  }

  app.post<{ Body: { id: string } }>(
    '/app/merge/deleteResult',
    // The body schema validates (no valid id is a 400); answers pass through unfiltered.
    { schema: deleteResultSchema, serializerCompiler: documented(deleteResultSchema).serializerCompiler },
    async (request) => {
      const session = requireSession(request);
      const found = await ownResult(session.sid, request.body.id);
      // The row first: from then on the file is neither listed nor served.
      const deleted = await store.deleteResult(session.sid, found.id);
      if (!deleted) fail('notFound');
      await files.remove(resultRef(deleted));
      const cover = resultCoverRef(deleted);
      if (cover) await files.remove(cover);
      request.log.info({ result: deleted.id }, 'result deleted');
      return { ok: true };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/app/merge/resultCover/:id',
    documented(resultCoverSchema),
    async (request, reply) => {
      const session = requireSession(request);
      const ref = resultCoverRef(await ownResult(session.sid, request.params.id));
      const data = ref && (await readCover(files, ref));
      const shape = data && imageShape(data);
      if (!data || !shape) fail('notFound', 'This result has no cover');
      return (
        reply
          .header('content-type', shape.mime)
          // A result's cover never changes: the browser may keep it as long as the page lists it.
          .header('cache-control', 'private, max-age=86400')
          .header('x-content-type-options', 'nosniff')
          .send(data)
      );
    },
  );
}
