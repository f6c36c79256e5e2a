// POST /app/merge/getDataJson {"appid"}: this session's items for the appid, in the saved order.
import type { FastifyInstance } from 'fastify';
import type { AudioItem } from '../../../shared/types.js';
import { requireSession } from '../session.js';
import type { ItemRow, Store } from '../../data/store.js';

export const APPID_PATTERN = '^[A-Za-z0-9_.-]{1,100}$';

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
    {
      schema: {
        body: {
          type: 'object',
          required: ['appid'],
          properties: { appid: { type: 'string', pattern: APPID_PATTERN } },
        },
      },
    },
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
