// POST /app/merge/getDataJson {"appid"}: this session's items for the appid, in the saved order.
import type { FastifyInstance } from 'fastify';
import type { AudioItem } from '../../../shared/types.js';
import { requireSession } from '../session.js';
import { documented, getDataJsonSchema } from './schemas.js';
import type { ItemRow, Store } from '../../data/store.js';


export function toAudioItem(row: ItemRow): AudioItem {
  return {
    id: row.id,
    sid: row.sid,
    newfilename: row.newfilename,
    format: row.format,
    filename: row.filename,
    duration: row.duration,
    size: row.size,
  };
}

export async function itemsRoutes(app: FastifyInstance, { store }: { store: Store }): Promise<void> {
  // The store may hand back the same list while a session's items are unchanged: serialise it once.
  const answers = new WeakMap<readonly ItemRow[], string>();
  app.post<{ Body: { appid: string } }>(
    '/app/merge/getDataJson',
    // This body schema validates (a bad appid is a 400); the answer is sent as text, never filtered.
    { schema: getDataJsonSchema, serializerCompiler: documented(getDataJsonSchema).serializerCompiler },
    async (request, reply) => {
      const session = requireSession(request);
      const rows = await store.listItems(session.sid, request.body.appid);
      let json = answers.get(rows);
      if (json === undefined) {
        json = JSON.stringify(rows.map(toAudioItem));
        answers.set(rows, json);
      }
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );
}
