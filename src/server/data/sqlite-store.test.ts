import { describe, expect, it } from 'vitest';
import type { ItemRow } from './store.js';
import { openSqliteStore } from './sqlite-store.js';

const item = (over: Partial<ItemRow>): ItemRow => ({
  id: 'i',
  sid: 's1',
  appid: 'app',
  newfilename: 'n',
  format: 'mp3',
  filename: 'a.mp3',
  size: 100,
  duration: 2,
  codec: 'mp3',
  sampleRate: 44100,
  channels: 2,
  createdAt: 1,
  ...over,
});

describe('sqlite store', () => {
  it('lists a session\'s items per appid in upload order and counts them', () => {
    const store = openSqliteStore(':memory:');
    store.createSession('h1', 's1', 't1', 1);
    store.createSession('h2', 's2', 't2', 1);
    store.addItem(item({ id: 'b', newfilename: 'nb' }));
    store.addItem(item({ id: 'a', newfilename: 'na' }));
    store.addItem(item({ id: 'c', newfilename: 'nc', appid: 'other' }));
    store.addItem(item({ id: 'd', newfilename: 'nd', sid: 's2' }));
    expect(store.listItems('s1', 'app').map((i) => i.id)).toEqual(['b', 'a']);
    expect(store.listItems('s1', 'app')[0]).toEqual(item({ id: 'b', newfilename: 'nb' }));
    expect(store.countItems('s1')).toBe(3);
    expect(store.itemsOwnedBy('s1', ['a', 'd', 'b', 'zz']).map((i) => i.id)).toEqual(['a', 'b']);
    expect(store.itemByStoredName('s1', 'nd')).toBeUndefined();
    expect(store.itemByStoredName('s2', 'nd')?.id).toBe('d');
  });

  it('finds sessions by hash and sid, and lists idle ones without active jobs', () => {
    const store = openSqliteStore(':memory:');
    store.createSession('h1', 's1', 't1', 100);
    store.createSession('h2', 's2', 't2', 100);
    store.createSession('h3', 's3', 't3', 100);
    store.touchSession('s3', 500);
    store.addJob({
      id: 'j', sid: 's2', appid: 'app', itemIds: ['x'], status: 'running', error: null, resultId: null,
      createdAt: 100, startedAt: 100, finishedAt: null,
    });
    expect(store.sessionBySecretHash('h1')?.sid).toBe('s1');
    expect(store.sessionBySecretHash('nope')).toBeUndefined();
    expect(store.idleSessions(200).map((s) => s.sid)).toEqual(['s1']);
    store.updateJob('j', { status: 'failed', error: 'why', finishedAt: 150 });
    expect(store.idleSessions(200).map((s) => s.sid).sort()).toEqual(['s1', 's2']);
    expect(store.getJob('j')).toMatchObject({ status: 'failed', error: 'why', finishedAt: 150, itemIds: ['x'] });
    expect(store.jobsWithStatus('failed').map((j) => j.id)).toEqual(['j']);
  });

  it('keeps results newest first and deletes everything of a session with it', () => {
    const store = openSqliteStore(':memory:');
    store.createSession('h1', 's1', 't1', 1);
    store.addItem(item({ id: 'a', newfilename: 'na' }));
    for (const [id, at] of [['j1', 10], ['j2', 20]] as const) {
      store.addJob({
        id, sid: 's1', appid: 'app', itemIds: ['a'], status: 'succeeded', error: null, resultId: `r${id}`,
        createdAt: at, startedAt: at, finishedAt: at,
      });
      store.addResult({
        id: `r${id}`, sid: 's1', jobId: id, file: `r${id}.mp3`, downloadName: 'merged.mp3', duration: 2, size: 9,
        sources: ['a.mp3', 'b.wav'], createdAt: at,
      });
    }
    expect(store.listResults('s1').map((r) => r.id)).toEqual(['rj2', 'rj1']);
    expect(store.getResult('s1', 'rj1')?.sources).toEqual(['a.mp3', 'b.wav']);
    expect(store.getResult('s2', 'rj1')).toBeUndefined();
    store.deleteSession('s1');
    expect(store.sessionBySid('s1')).toBeUndefined();
    expect(store.countItems('s1')).toBe(0);
    expect(store.listResults('s1')).toEqual([]);
    expect(store.getJob('j1')).toBeUndefined();
  });
});
