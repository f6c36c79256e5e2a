// The Store contract: one suite of cases that every Store implementation runs (memory and SQLite
// now, Postgres later), the way tus-node-server runs one suite against all its stores. A store
// that passes behaves the same as the others wherever the server can tell.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ItemRow, JobRow, ResultRow, Store } from './store.js';

export type StoreFactory = () => Promise<Store> | Store;

export function contractItem(id: string, over: Partial<ItemRow> = {}): ItemRow {
  return {
    id, sid: 's1', appid: 'app', newfilename: `n-${id}`, format: 'mp3', filename: `${id}.mp3`,
    size: 100, duration: 2.5, codec: 'mp3', sampleRate: 44100, channels: 2, createdAt: 1,
    start: null, end: null, chapterTitle: null, titleTag: null, chapterCount: null, ...over,
  };
}

export function contractJob(id: string, over: Partial<JobRow> = {}): JobRow {
  return {
    id, sid: 's1', appid: 'app', itemIds: ['a'], status: 'queued', error: null, errorCode: null, errorFile: null, resultId: null,
    createdAt: 10, startedAt: null, finishedAt: null, requestId: null, options: {}, percent: null,
    statusText: null, attempts: 0, ...over,
  };
}

export function contractResult(id: string, jobId: string, over: Partial<ResultRow> = {}): ResultRow {
  return {
    id, sid: 's1', jobId, file: `${id}.mp3`, downloadName: 'merged-2026-11-21-1430.mp3', format: 'mp3',
    duration: 5.25, size: 4096, sources: ['a.mp3', 'b.wav'], chapters: [], details: {}, cover: null,
    createdAt: 20, ...over,
  };
}

const ids = (rows: readonly { id: string }[]) => rows.map((r) => r.id);
const NO_LIMIT = 1_000_000;

export function describeStoreContract(name: string, makeStore: StoreFactory): void {
  describe(`store contract: ${name}`, () => {
    let store: Store;
    const add = async (...items: ItemRow[]) => {
      for (const i of items) expect(await store.addItemIfUnder(i, NO_LIMIT)).toBe(true);
    };

    beforeEach(async () => {
      store = await makeStore();
      await store.createSession('hash-1', 's1', 'csrf-1', 100);
      await store.createSession('hash-2', 's2', 'csrf-2', 100);
    });
    afterEach(async () => {
      await store.close();
    });

    describe('sessions', () => {
      it('finds a session by its secret hash and by sid, and never shows the hash', async () => {
        const expected = { sid: 's1', csrfToken: 'csrf-1', createdAt: 100, lastSeenAt: 100 };
        // PostgreSQL adds the items' version to a session read by its hash (getDataJson's one read).
        const { itemsVersion, ...byHash } = (await store.sessionBySecretHash('hash-1')) ?? {};
        expect(byHash).toEqual(expected);
        expect(itemsVersion === undefined || typeof itemsVersion === 'number').toBe(true);
        expect(await store.sessionBySid('s1')).toEqual(expected);
        expect(await store.sessionBySecretHash('s1')).toBeUndefined();
        expect(await store.sessionBySid('nobody')).toBeUndefined();
      });

      it('touch moves lastSeenAt forward only', async () => {
        await store.touchSession('s1', 500);
        await store.touchSession('s1', 300);
        expect((await store.sessionBySid('s1'))?.lastSeenAt).toBe(500);
      });

      it('lists idle sessions oldest first, leaving out those with a queued or running job', async () => {
        await store.createSession('hash-3', 's3', 'csrf-3', 50);
        await store.touchSession('s2', 1000);
        expect((await store.idleSessions(200)).map((s) => s.sid)).toEqual(['s3', 's1']);
        await store.addJob(contractJob('j1', { sid: 's1', status: 'running' }));
        expect((await store.idleSessions(200)).map((s) => s.sid)).toEqual(['s3']);
        await store.updateJob('j1', { status: 'cancelled' });
        expect((await store.idleSessions(200)).map((s) => s.sid)).toEqual(['s3', 's1']);
      });

      it('deleting a session deletes its items, jobs and results, and nothing of another session', async () => {
        await add(contractItem('a'), contractItem('b', { sid: 's2' }));
        await store.addJob(contractJob('j1'));
        await store.addJob(contractJob('j2', { sid: 's2', itemIds: ['b'] }));
        await store.addResult(contractResult('r1', 'j1'));
        await store.addResult(contractResult('r2', 'j2', { sid: 's2' }));
        await store.deleteSession('s1');
        expect(await store.sessionBySid('s1')).toBeUndefined();
        expect(await store.countItems('s1')).toBe(0);
        expect(await store.getJob('j1')).toBeUndefined();
        expect(await store.resultById('r1')).toBeUndefined();
        expect(ids(await store.listItems('s2', 'app'))).toEqual(['b']);
        expect(await store.getJob('j2')).toBeDefined();
        expect(ids(await store.listResults('s2'))).toEqual(['r2']);
      });
    });

    describe('items', () => {
      it('round-trips every field of an item', async () => {
        const row = contractItem('a', { format: 'flac', filename: 'Ünïcode name.flac', size: 123456, duration: 61.75, codec: 'flac', sampleRate: 48000, channels: 1, createdAt: 42 });
        await add(row);
        expect(await store.itemById('a')).toEqual(row);
        expect(await store.itemByStoredName('s1', 'n-a')).toEqual(row);
        expect(await store.listItems('s1', 'app')).toEqual([row]);
      });

      it('lists a session\'s items per appid in upload order, and counts them across appids', async () => {
        await add(contractItem('b'), contractItem('a'), contractItem('c', { appid: 'other' }), contractItem('d', { sid: 's2' }));
        expect(ids(await store.listItems('s1', 'app'))).toEqual(['b', 'a']);
        expect(ids(await store.listItems('s1', 'other'))).toEqual(['c']);
        expect(ids(await store.listItems('s2', 'app'))).toEqual(['d']);
        expect(await store.countItems('s1')).toBe(3);
        expect(await store.countItems('nobody')).toBe(0);
      });

      it('addItemIfUnder refuses the item that would pass the limit, and stores nothing for it', async () => {
        expect(await store.addItemIfUnder(contractItem('a'), 2)).toBe(true);
        expect(await store.addItemIfUnder(contractItem('b', { appid: 'other' }), 2)).toBe(true);
        expect(await store.addItemIfUnder(contractItem('c'), 2)).toBe(false);
        expect(await store.itemById('c')).toBeUndefined();
        expect(await store.countItems('s1')).toBe(2);
        // Another session's count is its own.
        expect(await store.addItemIfUnder(contractItem('d', { sid: 's2' }), 1)).toBe(true);
      });

      it('addItemIfUnder is exact when many uploads arrive at once', async () => {
        const tries = Array.from({ length: 40 }, (_, n) => store.addItemIfUnder(contractItem(`x${n}`), 7));
        const outcomes = await Promise.all(tries);
        expect(outcomes.filter(Boolean)).toHaveLength(7);
        expect(await store.countItems('s1')).toBe(7);
        expect(ids(await store.listItems('s1', 'app'))).toEqual(
          outcomes.flatMap((ok, n) => (ok ? [`x${n}`] : [])),
        );
      });

      it('itemsOwnedBy keeps the order asked and leaves out unknown and foreign ids', async () => {
        await add(contractItem('a'), contractItem('b'), contractItem('f', { sid: 's2' }));
        expect(ids(await store.itemsOwnedBy('s1', ['b', 'f', 'zz', 'a']))).toEqual(['b', 'a']);
        expect(await store.itemsOwnedBy('s2', ['a', 'b'])).toEqual([]);
      });

      it('itemById finds any session\'s item; itemByStoredName only within the session', async () => {
        await add(contractItem('f', { sid: 's2' }));
        expect((await store.itemById('f'))?.sid).toBe('s2');
        expect(await store.itemById('nope')).toBeUndefined();
        expect(await store.itemByStoredName('s1', 'n-f')).toBeUndefined();
        expect((await store.itemByStoredName('s2', 'n-f'))?.id).toBe('f');
      });

      it('deleteItem removes the session\'s own item and refuses another session\'s', async () => {
        await add(contractItem('a'), contractItem('b'), contractItem('f', { sid: 's2' }));
        expect(await store.deleteItem('s1', 'f')).toBeUndefined();
        expect((await store.itemById('f'))?.sid).toBe('s2');
        expect(await store.deleteItem('s1', 'nope')).toBeUndefined();
        expect(await store.deleteItem('s1', 'a')).toEqual(contractItem('a'));
        expect(ids(await store.listItems('s1', 'app'))).toEqual(['b']);
        expect(await store.countItems('s1')).toBe(1);
        expect(await store.deleteItem('s1', 'a')).toBeUndefined();
      });

      it('a deleted item frees its place under the limit', async () => {
        await store.addItemIfUnder(contractItem('a'), 1);
        expect(await store.addItemIfUnder(contractItem('b'), 1)).toBe(false);
        await store.deleteItem('s1', 'a');
        expect(await store.addItemIfUnder(contractItem('b'), 1)).toBe(true);
      });

      it('saveOrder sets the order; items it does not name follow in upload order', async () => {
        await add(contractItem('a'), contractItem('b'), contractItem('c'), contractItem('d'));
        await store.saveOrder('s1', 'app', ['c', 'a']);
        expect(ids(await store.listItems('s1', 'app'))).toEqual(['c', 'a', 'b', 'd']);
        await add(contractItem('e'));
        expect(ids(await store.listItems('s1', 'app'))).toEqual(['c', 'a', 'b', 'd', 'e']);
        await store.saveOrder('s1', 'app', ['e', 'd', 'c', 'b', 'a']);
        expect(ids(await store.listItems('s1', 'app'))).toEqual(['e', 'd', 'c', 'b', 'a']);
        // A later save replaces the earlier one whole.
        await store.saveOrder('s1', 'app', ['b']);
        expect(ids(await store.listItems('s1', 'app'))).toEqual(['b', 'a', 'c', 'd', 'e']);
      });

      it('saveOrder never reorders another session\'s or another appid\'s items', async () => {
        await add(contractItem('a'), contractItem('b'), contractItem('o', { appid: 'other' }), contractItem('f1', { sid: 's2' }), contractItem('f2', { sid: 's2' }));
        await store.saveOrder('s2', 'app', ['f2', 'f1']);
        await store.saveOrder('s1', 'app', ['f1', 'o', 'b', 'a', 'b', 'unknown']);
        expect(ids(await store.listItems('s1', 'app'))).toEqual(['b', 'a']);
        expect(ids(await store.listItems('s1', 'other'))).toEqual(['o']);
        expect(ids(await store.listItems('s2', 'app'))).toEqual(['f2', 'f1']);
      });

      it('saveItem keeps a span and a chapter title, listed at once; null puts each back; never another session\'s', async () => {
        await add(contractItem('a', { titleTag: 'Opening credits' }), contractItem('b'), contractItem('f', { sid: 's2' }));
        const fresh = (await store.listItems('s1', 'app'))[0];
        expect([fresh.start, fresh.end, fresh.chapterTitle, fresh.titleTag]).toEqual([null, null, null, 'Opening credits']);
        expect((await store.itemById('b'))?.titleTag ?? null).toBeNull();
        expect(await store.saveItem('s1', 'a', { start: 0.25, end: 2, chapterTitle: 'Opening' })).toBe(true);
        expect(await store.listItems('s1', 'app')).toMatchObject([{ id: 'a', start: 0.25, end: 2, chapterTitle: 'Opening' }, { id: 'b', start: null }]);
        expect(await store.itemById('a')).toMatchObject({ start: 0.25, end: 2, chapterTitle: 'Opening' });
        expect(await store.saveItem('s1', 'a', { start: null, end: 1.5, chapterTitle: null })).toBe(true);
        expect(await store.itemsOwnedBy('s1', ['a'])).toMatchObject([{ start: null, end: 1.5, chapterTitle: null }]);
        expect(await store.saveItem('s1', 'f', { start: 1, end: 2, chapterTitle: 'x' })).toBe(false);
        expect(await store.saveItem('s1', 'missing', { start: 1, end: 2, chapterTitle: 'x' })).toBe(false);
        expect(await store.itemById('f')).toMatchObject({ start: null, end: null, chapterTitle: null });
      });

      it("fixItemLength sets an item's length, listed at once; an end at or past it becomes the end; never another session's", async () => {
        await add(contractItem('a'), contractItem('b'), contractItem('f', { sid: 's2' }));
        expect(await store.saveItem('s1', 'a', { start: 0.5, end: 2.05, chapterTitle: null })).toBe(true);
        expect(await store.saveItem('s1', 'b', { start: null, end: 1, chapterTitle: null })).toBe(true);
        expect(await store.listItems('s1', 'app')).toHaveLength(2);
        expect(await store.fixItemLength('s1', 'a', 2.04)).toBe(true);
        expect(await store.fixItemLength('s1', 'b', 2.04)).toBe(true);
        expect(await store.listItems('s1', 'app')).toMatchObject([
          { id: 'a', duration: 2.04, start: 0.5, end: null },
          { id: 'b', duration: 2.04, end: 1 },
        ]);
        expect(await store.fixItemLength('s1', 'f', 1)).toBe(false);
        expect(await store.itemById('f')).not.toMatchObject({ duration: 1 });
      });

      it("keeps how many chapters an item's file carries, 0 as none, and none known when not given", async () => {
        await add(contractItem('a', { chapterCount: 2 }), contractItem('b', { chapterCount: 0 }), contractItem('c'));
        expect((await store.listItems('s1', 'app')).map((i) => i.chapterCount ?? null)).toEqual([2, 0, null]);
        expect((await store.itemById('a'))?.chapterCount).toBe(2);
        expect(await store.saveItem('s1', 'a', { start: 1, end: null, chapterTitle: 'x' })).toBe(true);
        expect((await store.itemsOwnedBy('s1', ['a', 'b']))?.map((i) => i.chapterCount)).toEqual([2, 0]);
      });

      it('a deleted item leaves the saved order of the rest intact', async () => {
        await add(contractItem('a'), contractItem('b'), contractItem('c'));
        await store.saveOrder('s1', 'app', ['c', 'b', 'a']);
        await store.deleteItem('s1', 'b');
        expect(ids(await store.listItems('s1', 'app'))).toEqual(['c', 'a']);
      });
    });

    describe('jobs', () => {
      it('round-trips every field of a job, options and request id included', async () => {
        const row = contractJob('j1', {
          itemIds: ['b', 'a', 'b'], requestId: 'req-7', options: { format: 'm4b', loudness: -16, chapters: true, title: 'T' },
          percent: 42, statusText: 'Merging: 42%', attempts: 1, status: 'running', startedAt: 11,
        });
        await store.addJob(row);
        expect(await store.getJob('j1')).toEqual(row);
        expect(await store.getJob('nope')).toBeUndefined();
      });

      it('updateJob changes only the fields given, through every state', async () => {
        await store.addJob(contractJob('j1'));
        await store.updateJob('j1', { status: 'running', startedAt: 12, attempts: 1, percent: 0, statusText: 'Merging: 0%' });
        await store.updateJob('j1', { percent: 55, statusText: 'Merging: 55%' });
        expect(await store.getJob('j1')).toEqual(
          contractJob('j1', { status: 'running', startedAt: 12, attempts: 1, percent: 55, statusText: 'Merging: 55%' }),
        );
        await store.updateJob('j1', { status: 'cancelled', error: 'The merge was cancelled', percent: null, finishedAt: 13 });
        expect(await store.getJob('j1')).toMatchObject({ status: 'cancelled', error: 'The merge was cancelled', percent: null, finishedAt: 13, startedAt: 12 });
        await store.updateJob('j1', { status: 'succeeded', resultId: 'r1', error: null });
        expect(await store.getJob('j1')).toMatchObject({ status: 'succeeded', resultId: 'r1', error: null });
      });

      it('keeps how a job failed: its words, their code and the file they name, for the session alone', async () => {
        await store.addJob(contractJob('bad', { createdAt: 10 }));
        await store.addJob(contractJob('theirs', { sid: 's2', createdAt: 11 }));
        expect(await store.getJob('bad')).toMatchObject({ errorCode: null, errorFile: null });
        const message = 'Could not merge: Ünïcode intro.mp3 is a damaged MP3 file';
        await store.updateJob('bad', {
          status: 'failed', error: message, statusText: message, errorCode: 'bad-mp3', errorFile: 'Ünïcode intro.mp3',
          percent: null, finishedAt: 14,
        });
        const failed = { status: 'failed', error: message, errorCode: 'bad-mp3', errorFile: 'Ünïcode intro.mp3' };
        expect(await store.getJob('bad')).toMatchObject(failed);
        expect(await store.latestJob('s1')).toMatchObject({ id: 'bad', ...failed });
        expect(await store.jobsWithStatus('failed')).toEqual([expect.objectContaining({ id: 'bad', ...failed })]);
        expect(await store.latestJob('s2')).toMatchObject({ id: 'theirs', errorCode: null, errorFile: null });
        // A failure about no one file keeps its code alone; a row added as failed keeps both as given.
        await store.updateJob('theirs', { status: 'failed', errorCode: 'interrupted', errorFile: null });
        expect(await store.getJob('theirs')).toMatchObject({ errorCode: 'interrupted', errorFile: null });
        await store.addJob(contractJob('added', { status: 'failed', errorCode: 'empty', errorFile: 'a.mp3', createdAt: 12 }));
        expect(await store.getJob('added')).toEqual(
          contractJob('added', { status: 'failed', errorCode: 'empty', errorFile: 'a.mp3', createdAt: 12 }),
        );
        expect(await store.addJobIfUnder(contractJob('under', { errorCode: 'x', errorFile: 'y' }), 5)).toBe(true);
        expect(await store.getJob('under')).toMatchObject({ errorCode: 'x', errorFile: 'y' });
      });

      it('addJobIfUnder counts only the session\'s queued and running jobs, and stores nothing when refused', async () => {
        expect(await store.addJobIfUnder(contractJob('q1'), 2)).toBe(true);
        expect(await store.addJobIfUnder(contractJob('r1', { status: 'running' }), 2)).toBe(true);
        await store.addJob(contractJob('done', { status: 'succeeded' }));
        await store.addJob(contractJob('theirs', { sid: 's2' }));
        expect(await store.addJobIfUnder(contractJob('q2'), 2)).toBe(false);
        expect(await store.getJob('q2')).toBeUndefined();
        await store.updateJob('q1', { status: 'failed' });
        expect(await store.addJobIfUnder(contractJob('q3'), 2)).toBe(true);
        expect(await store.getJob('q3')).toEqual(contractJob('q3'));
        expect(await store.addJobIfUnder(contractJob('theirs2', { sid: 's2' }), 2)).toBe(true);
      });

      it('addJobIfUnder lets exactly `limit` of jobs posted at once in', async () => {
        const added = await Promise.all(
          Array.from({ length: 6 }, (_, n) => store.addJobIfUnder(contractJob(`c${n}`), 3)),
        );
        expect(added.filter(Boolean)).toHaveLength(3);
        expect(await store.jobsWithStatus('queued')).toHaveLength(3);
      });

      it('endJob writes the end of a queued or running job once: every later end, however many at once, changes nothing', async () => {
        await store.addJob(contractJob('q'));
        await store.addJob(contractJob('r', { status: 'running', startedAt: 5, percent: 40 }));
        const failed = { status: 'failed' as const, error: 'The merge was interrupted', errorCode: 'interrupted', errorFile: null, percent: null, finishedAt: 20 };
        const raced = await Promise.all([
          store.endJob('r', failed),
          store.endJob('r', { ...failed, errorCode: 'mergeFailed', finishedAt: 21 }),
          store.endJob('r', { status: 'cancelled', error: 'The merge was cancelled', errorCode: 'cancelled', finishedAt: 22 }),
        ]);
        expect(raced.filter(Boolean)).toHaveLength(1);
        const ended = await store.getJob('r');
        expect(['interrupted', 'mergeFailed', 'cancelled']).toContain(ended?.errorCode);
        expect(ended).toMatchObject({ status: raced[2] ? 'cancelled' : 'failed', startedAt: 5 });
        expect(await store.endJob('q', { status: 'cancelled', errorCode: 'cancelled', finishedAt: 23 })).toBe(true);
        expect(await store.getJob('q')).toMatchObject({ status: 'cancelled', errorCode: 'cancelled', finishedAt: 23 });

        await store.addJob(contractJob('done', { status: 'succeeded', resultId: 'r1', percent: 100, finishedAt: 9 }));
        expect(await store.endJob('done', failed)).toBe(false);
        expect(await store.getJob('done')).toEqual(
          contractJob('done', { status: 'succeeded', resultId: 'r1', percent: 100, finishedAt: 9 }),
        );
        expect(await store.endJob('nope', failed)).toBe(false);
        expect(await store.getJob('nope')).toBeUndefined();
        // An ended job no longer holds its session's place.
        expect(await store.addJobIfUnder(contractJob('next'), 1)).toBe(true);
      });

      it('updateJob of an unknown job changes nothing', async () => {
        await store.updateJob('nope', { status: 'failed' });
        expect(await store.getJob('nope')).toBeUndefined();
      });

      it('jobsWithStatus lists oldest first', async () => {
        await store.addJob(contractJob('late', { createdAt: 30 }));
        await store.addJob(contractJob('early', { createdAt: 10 }));
        await store.addJob(contractJob('same', { createdAt: 30 }));
        await store.addJob(contractJob('done', { status: 'failed' }));
        expect(ids(await store.jobsWithStatus('queued'))).toEqual(['early', 'late', 'same']);
        expect(ids(await store.jobsWithStatus('failed'))).toEqual(['done']);
        expect(await store.jobsWithStatus('cancelled')).toEqual([]);
      });

      it('latestJob is the session\'s newest, never another session\'s', async () => {
        expect(await store.latestJob('s1')).toBeUndefined();
        await store.addJob(contractJob('old', { createdAt: 10 }));
        await store.addJob(contractJob('new', { createdAt: 20 }));
        await store.addJob(contractJob('tie', { createdAt: 20 }));
        await store.addJob(contractJob('theirs', { sid: 's2', createdAt: 99 }));
        expect((await store.latestJob('s1'))?.id).toBe('tie');
        expect((await store.latestJob('s2'))?.id).toBe('theirs');
      });
    });

    describe('results', () => {
      beforeEach(async () => {
        await store.addJob(contractJob('j1'));
        await store.addJob(contractJob('j2'));
        await store.addJob(contractJob('j3', { sid: 's2' }));
      });

      it('round-trips every field of a result, format and chapters included', async () => {
        const row = contractResult('r1', 'j1', {
          format: 'm4b', file: 'r1.m4b', downloadName: 'merged-2026-11-21-1430.m4b',
          chapters: [{ title: 'Intro', start: 0, end: 12.5 }, { title: 'Kapitel zwei', start: 12.5, end: 30.025 }],
        });
        await store.addResult(row);
        expect(await store.getResult('s1', 'r1')).toEqual(row);
        expect(await store.resultById('r1')).toEqual(row);
        expect(await store.listResults('s1')).toEqual([row]);
      });

      it('round-trips a result\'s details and its cover; one without them lists none', async () => {
        const details = {
          title: 'Der Zauberberg', artist: 'Thomas Mann', composer: 'Gert Westphal', date: '1924',
          description: 'Erster Band\nZweiter Band', genre: 'Roman "klassisch"',
        };
        const row = contractResult('r1', 'j1', { format: 'm4b', file: 'r1.m4b', details, cover: 'r1-cover.png' });
        await store.addResult(row);
        await store.addResult(contractResult('r2', 'j2'));
        expect(await store.getResult('s1', 'r1')).toEqual(row);
        expect((await store.listResults('s1')).map((r) => [r.id, r.details, r.cover])).toEqual([
          ['r2', {}, null],
          ['r1', details, 'r1-cover.png'],
        ]);
        expect(await store.deleteResult('s1', 'r1')).toEqual(row);
      });

      it('gives a result whose download name the session already has the next free one, and answers with the row as stored', async () => {
        const name = 'Book 2026-11-21 1430.m4b';
        const first = contractResult('r1', 'j1', { downloadName: name });
        expect(await store.addResult(first)).toEqual(first);
        expect((await store.addResult(contractResult('r2', 'j2', { downloadName: name }))).downloadName).toBe('Book 2026-11-21 1430 (2).m4b');
        // Another session's result keeps the name: names are unique per session only.
        expect((await store.addResult(contractResult('r3', 'j3', { sid: 's2', downloadName: name }))).downloadName).toBe(name);
        expect((await store.listResults('s1')).map((r) => [r.id, r.downloadName]).sort()).toEqual([
          ['r1', name],
          ['r2', 'Book 2026-11-21 1430 (2).m4b'],
        ]);
        expect((await store.resultById('r2'))?.downloadName).toBe('Book 2026-11-21 1430 (2).m4b');
        // A deleted result's name is free again.
        await store.deleteResult('s1', 'r1');
        await store.addJob(contractJob('j4'));
        expect((await store.addResult(contractResult('r4', 'j4', { downloadName: name }))).downloadName).toBe(name);
      });

      it('lists a session\'s results newest first, and only its own', async () => {
        await store.addResult(contractResult('r1', 'j1', { createdAt: 10 }));
        await store.addResult(contractResult('r2', 'j2', { createdAt: 20 }));
        await store.addResult(contractResult('r3', 'j3', { sid: 's2', createdAt: 30 }));
        expect(ids(await store.listResults('s1'))).toEqual(['r2', 'r1']);
        expect(ids(await store.listResults('s2'))).toEqual(['r3']);
      });

      it('getResult and deleteResult refuse another session\'s result; resultById finds any', async () => {
        await store.addResult(contractResult('r3', 'j3', { sid: 's2' }));
        expect(await store.getResult('s1', 'r3')).toBeUndefined();
        expect(await store.deleteResult('s1', 'r3')).toBeUndefined();
        expect((await store.resultById('r3'))?.sid).toBe('s2');
        expect(await store.resultById('nope')).toBeUndefined();
      });

      it('deleteResult removes the session\'s own result and answers with it once', async () => {
        const row = contractResult('r1', 'j1');
        await store.addResult(row);
        await store.addResult(contractResult('r2', 'j2'));
        expect(await store.deleteResult('s1', 'r1')).toEqual(row);
        expect(await store.deleteResult('s1', 'r1')).toBeUndefined();
        expect(ids(await store.listResults('s1'))).toEqual(['r2']);
        expect(await store.getJob('j1')).toBeDefined();
      });
    });

    it('hands out copies: changing a returned row changes nothing stored', async () => {
      await add(contractItem('a'));
      await store.addJob(contractJob('j1', { itemIds: ['a'], options: { gap: 1 } }));
      await store.addResult(contractResult('r1', 'j1'));
      const job = (await store.getJob('j1'))!;
      job.itemIds.push('x');
      job.options.gap = 9;
      const result = (await store.resultById('r1'))!;
      result.sources.push('x');
      result.details.title = 'changed';
      expect(await store.getJob('j1')).toMatchObject({ itemIds: ['a'], options: { gap: 1 } });
      expect((await store.resultById('r1'))?.sources).toEqual(['a.mp3', 'b.wav']);
      expect((await store.resultById('r1'))?.details).toEqual({});
    });
  });
}
