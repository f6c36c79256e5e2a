// GET /app/merge/tagDetails?appid=: the book details a merge of the session's list would take from
// its files' tags, for the Book details fields' placeholders (uploads/tag-details.ts keeps them), by the rule a merge follows (engine/plan/tags-plan.ts).
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../data/store.js';
import type { FileStorage } from '../../files/storage.js';
import { inheritedDetails } from '../../../engine/index.js';
import { ITEMS_READ, readTagDetails } from '../../uploads/tag-details.js';
import { requireSession } from '../session.js';
import { documented, tagDetailsSchema } from './schemas.js';

export async function tagDetailsRoutes(
  app: FastifyInstance,
  { store, files }: { store: Store; files: FileStorage },
): Promise<void> {
  app.get<{ Querystring: { appid: string } }>(
    '/app/merge/tagDetails',
    { schema: tagDetailsSchema, serializerCompiler: documented(tagDetailsSchema).serializerCompiler },
    async (request) => {
      const session = requireSession(request);
      const items = (await store.listItems(session.sid, request.query.appid)).slice(0, ITEMS_READ);
      return { details: inheritedDetails(await Promise.all(items.map((i) => readTagDetails(files, i)))) };
    },
  );
}
