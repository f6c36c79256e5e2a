// The merged results: POST /app/merge/deleteResult {"id"} removes a result's row, its file and its
// cover; GET /app/merge/resultCover/{id} serves the cover kept with a result, to its session only.
import type { FastifyInstance } from 'fastify';
import type { ResultRow, Store } from '../../data/store.js';
import { resultRef, type FileRef, type FileStorage } from '../../files/storage.js';
import { fail } from '../errors.js';
import { requireSession } from '../session.js';
import { deleteResultSchema, documented, resultCoverSchema } from './schemas.js';
import { sendStoredCover } from './stored-cover.js';

/** The result's own copy of its cover, when it has one. */
export const resultCoverRef = (result: Pick<ResultRow, 'sid' | 'cover'>): FileRef | undefined =>
  result.cover ? resultRef({ sid: result.sid, file: result.cover }) : undefined;

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
      if (!ref) fail('notFound', 'This result has no cover');
      // A result's cover never changes (a result id is never reused): the browser may keep it as
      // long as the page lists it.
      return sendStoredCover(reply, files, ref, {
        cacheControl: 'private, max-age=86400',
        missing: 'This result has no cover',
        ifNoneMatch: request.headers['if-none-match'],
      });
    },
  );
}
