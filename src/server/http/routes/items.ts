// The session's list of items (docs/reference/http.md): getDataJson {"appid"} in the saved order,
// deleteItem {"id"} (the row and its stored file), saveOrder {"appid", "ids"}.
import type { FastifyInstance } from 'fastify';
import { toAudioItem } from '../../uploads/audio-item.js';
import { requireSession } from '../session.js';
import {
  deleteItemSchema,
  documented,
  getDataJsonSchema,
  saveItemSchema,
  saveOrderSchema,
} from './schemas.js';
import { checkItemEdit } from './item-edit.js';
import type { AppConfig } from '../../config.js';
import type { ItemRow, Store } from '../../data/store.js';
import { peaksRef, tagsRef, uploadRef, type FileStorage } from '../../files/storage.js';
import { fail } from '../errors.js';

export interface ItemsRouteDeps {
  store: Store;
  files: FileStorage;
  config: Pick<AppConfig, 'maxFiles'>;
}

/** Another session's item is refused (403), one that does not exist is not found (404). */
async function ownItem(store: Store, sid: string, id: string): Promise<ItemRow> {
  const item = await store.itemById(id);
  if (!item) fail('notFound');
  if (item.sid !== sid) fail('foreignItem');
  return item;
}

/**
 * Any merge of the session waiting or running reads this item's file (not only its latest): it
 * stays until every such merge has ended.
 */
async function refuseIfInMerge(store: Store, item: ItemRow): Promise<void> {
  const open = [...(await store.jobsWithStatus('queued')), ...(await store.jobsWithStatus('running'))];
  if (open.some((job) => job.sid === item.sid && job.itemIds.includes(item.id))) fail('itemInMerge');
}

export async function itemsRoutes(
  app: FastifyInstance,
  { store, files, config }: ItemsRouteDeps,
): Promise<void> {
  // The store may hand back the same list while a session's items are unchanged: serialise it
  // once, to bytes, so each answer is one write with no encoding or length to work out again.
  const answers = new WeakMap<readonly ItemRow[], Buffer>();
  const orderSchema = saveOrderSchema(config.maxFiles);
  app.post<{ Body: { appid: string } }>(
    '/app/merge/getDataJson',
    // This body schema validates (a bad appid is a 400); the answer is sent as text, never filtered.
    { schema: getDataJsonSchema, serializerCompiler: documented(getDataJsonSchema).serializerCompiler },
    async (request, reply) => {
      const session = requireSession(request);
      const rows = await store.listItems(session.sid, request.body.appid, session.itemsVersion);
      let json = answers.get(rows);
      if (json === undefined) {
        json = Buffer.from(JSON.stringify(rows.map(toAudioItem)));
        answers.set(rows, json);
      }
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );

  app.post<{ Body: { id: string } }>(
    '/app/merge/deleteItem',
    // The body schema validates (no valid id is a 400); answers pass through unfiltered.
    { schema: deleteItemSchema, serializerCompiler: documented(deleteItemSchema).serializerCompiler },
    async (request) => {
      const session = requireSession(request);
      const item = await ownItem(store, session.sid, request.body.id);
      await refuseIfInMerge(store, item);
      // The row first: once it is gone no merge can pick the file up; a second delete finds nothing.
      const deleted = await store.deleteItem(session.sid, item.id);
      if (!deleted) fail('notFound');
      await files.remove(uploadRef(deleted));
      await files.remove(peaksRef(deleted));
      await files.remove(tagsRef(deleted));
      request.log.info({ item: deleted.id }, 'item deleted');
      return { ok: true };
    },
  );

  app.post<{ Body: unknown }>('/app/merge/saveItem', documented(saveItemSchema), async (request) => {
    const session = requireSession(request);
    const body = request.body as Record<string, unknown> | null;
    const id = body?.id;
    if (typeof id !== 'string' || id.length === 0 || id.length > 200)
      fail('badRequest', 'id: an item id is needed');
    const item = await ownItem(store, session.sid, id);
    const edit = checkItemEdit(body!, item);
    if (!edit.ok) fail(edit.code, edit.detail, { field: edit.field });
    if (!(await store.saveItem(session.sid, item.id, edit.edit))) fail('notFound');
    return { ok: true };
  });

  app.post<{ Body: { appid: string; ids: string[] } }>(
    '/app/merge/saveOrder',
    { schema: orderSchema, serializerCompiler: documented(orderSchema).serializerCompiler },
    async (request) => {
      const session = requireSession(request);
      const { appid, ids } = request.body;
      // Nothing is saved unless every id is one of this session's items of this appid.
      const owned = await store.itemsOwnedBy(session.sid, ids);
      if (owned.length !== ids.length || owned.some((i) => i.appid !== appid)) fail('foreignItem');
      await store.saveOrder(session.sid, appid, ids);
      return { ok: true };
    },
  );
}
