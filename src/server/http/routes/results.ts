// POST /app/merge/deleteResult {"id"} (docs/api.md section 3): the result's row and its file.
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../data/store.js';
import { resultRef, type FileStorage } from '../../files/storage.js';
import { fail } from '../errors.js';
import { requireSession } from '../session.js';
import { deleteResultSchema, documented } from './schemas.js';

export async function resultsRoutes(
  app: FastifyInstance,
  { store, files }: { store: Store; files: FileStorage },
): Promise<void> {
  app.post<{ Body: { id: string } }>(
    '/app/merge/deleteResult',
    // The body schema validates (no valid id is a 400); answers pass through unfiltered.
    { schema: deleteResultSchema, serializerCompiler: documented(deleteResultSchema).serializerCompiler },
    async (request) => {
      const session = requireSession(request);
      const found = await store.resultById(request.body.id);
      if (!found) fail('notFound');
      if (found.sid !== session.sid) fail('foreignFile');
      // The row first: from then on the file is neither listed nor served.
      const deleted = await store.deleteResult(session.sid, found.id);
      if (!deleted) fail('notFound');
      await files.remove(resultRef(deleted));
      request.log.info({ result: deleted.id }, 'result deleted');
      return { ok: true };
    },
  );
}
