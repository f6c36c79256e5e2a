// What an attacker tried first: option keys named after Object.prototype's methods, control
// characters in tags, right-to-left overrides in download names, and refusals without a code.
// Each is answered with a 400 naming what is wrong, or taken out, and every refusal has a code.
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTone } from './support/audio-fixtures.js';
import { useMediaApp } from './support/media-app.js';
import type { TestSession } from './support/server-harness.js';

const env = useMediaApp({
  prefix: 'hygiene-media-',
  media: async (file) => {
    await makeTone(file('a.mp3'), { seconds: 1, frequency: 300 });
    await makeTone(file('b.mp3'), { seconds: 1, frequency: 600 });
  },
});
let s: TestSession;
let ids: string[];

beforeAll(async () => {
  const session = await env.sessionWith(['a.mp3', 'b.mp3']);
  s = session.s;
  ids = session.items.map((i) => i.id);
});

const merge = (options: unknown) => env.merge(s, ids, { options });
const { allJobs } = env;

describe('option keys', () => {
  it.each(['hasOwnProperty', 'isPrototypeOf', 'constructor', 'toString', 'valueOf', '__defineGetter__'])(
    '%s is an unknown option: 400 naming it, nothing queued',
    async (key) => {
      const res = await merge({ [key]: 'x' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: `The key "${key}" is not allowed in a request`,
        code: 'badRequest',
        field: key,
      });
      expect(await allJobs()).toEqual([]);
    },
  );
});

/** Every route that reads a JSON body, with a body it would otherwise take. */
const JSON_ROUTES: [string, (key: string) => string][] = [
  ['/app/merge/getDataJson', (k) => `{"appid": "a", "${k}": {"x": 1}}`],
  ['/app/merge/mergemp3', (k) => `{"items": [{"id": "1", "${k}": "x"}]}`],
  ['/app/merge/deleteItem', (k) => `{"id": "1", "${k}": 1}`],
  ['/app/merge/saveOrder', (k) => `{"appid": "a", "ids": [], "${k}": null}`],
  ['/app/merge/saveItem', (k) => `{"id": "1", "marks": [{"at": 0, "${k}": "t"}]}`],
  ['/app/merge/cancel', (k) => `{"${k}": {"polluted": true}}`],
  ['/app/merge/deleteResult', (k) => `{"id": "1", "${k}": []}`],
  ['/app/merge/saveChoices', (k) => `{"appid": "a", "choices": {"${k}": {"format": "mp3"}}}`],
  ['/app/merge/deleteCover', (k) => `{"${k}": "x"}`],
];

describe('a key every object inherits, anywhere in a JSON body', () => {
  it.each(
    JSON_ROUTES.flatMap(([url, body]) =>
      ['__proto__', 'constructor', 'hasOwnProperty'].map((k) => [url, k, body(k)]),
    ),
  )('%s with "%s": 400 naming it', async (url, key, payload) => {
    const res = await env.inject({
      method: 'POST',
      url,
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: `The key "${key}" is not allowed in a request`,
      code: 'badRequest',
      field: key,
    });
  });

  it('leaves nothing changed: no item gone, no choices saved, no merge queued', async () => {
    expect((await env.items(s)).map((i) => i.id)).toEqual(ids);
    expect(await allJobs()).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('says so when the body is not JSON, or empty', async () => {
    const post = (payload: string) =>
      env.inject({
        method: 'POST',
        url: '/app/merge/getDataJson',
        headers: {
          cookie: s.cookie,
          'x-csrf-token': s.csrf,
          'content-type': 'application/json; charset=utf-8',
        },
        payload,
      });
    expect((await post('{"appid": ')).json()).toEqual({
      error: 'The request body is not valid JSON',
      code: 'badRequest',
    });
    expect((await post('')).json()).toEqual({
      error: 'The request body is empty; it must be JSON',
      code: 'badRequest',
    });
    expect((await post('{"appid": "a", "title": "__proto__"}')).statusCode).toBe(200);
  });
});

describe('tags', () => {
  it.each([
    ['title', 'Part\r1'],
    ['artist', 'A\u0000B'],
    ['album', 'x\u001by'],
    ['title', 'two\nlines'],
    ['album', 'del\u007f'],
    ['artist', 'next\u0085line'],
    ['title', 'csi\u009b31m'],
  ])('%s holding a control character is a 400 naming the field', async (field, value) => {
    const res = await merge({ [field]: value });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: `Option "${field}" must be one line without control or bidirectional control characters`,
      code: 'badRequest',
    });
    expect(await allJobs()).toEqual([]);
  });
});

describe('bidirectional controls in a title', () => {
  it('are refused as control characters are: a 400 naming the field, nothing merged', async () => {
    const res = await merge({ title: 'Book \u202egpj.exe\u2066x\u2069\u202a\u202c' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Option "title" must be one line without control or bidirectional control characters',
      code: 'badRequest',
    });
    const described = await merge({ description: 'First\nsecond \u2067line\u2069' });
    expect(described.json()).toEqual({
      error:
        'Option "description" must not hold control or bidirectional control characters other than newlines and tabs',
      code: 'badRequest',
    });
    expect(await allJobs()).toEqual([]);
  });
});

describe('every refusal', () => {
  it('is {error, code}: unknown paths, bodies too large, types not spoken, bad ranges', async () => {
    const notFound = await env.inject({ method: 'GET', url: '/no/such/page' });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json()).toEqual({ error: expect.any(String), code: 'notFound' });

    const big = await env.post(s, '/app/merge/getDataJson', { appid: 'x'.repeat(2 * 1024 * 1024) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ error: expect.any(String), code: 'bodyTooLarge' });

    const plain = await env.inject({
      method: 'POST',
      url: '/app/merge/getDataJson',
      headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': 'text/plain' },
      payload: 'appid=x',
    });
    expect(plain.statusCode).toBe(415);
    expect(plain.json()).toEqual({ error: expect.any(String), code: 'unsupportedMediaType' });

    const [item] = await env.items(s);
    const range = await env.inject({
      method: 'GET',
      url: `/upload/${s.sid}/${item.newfilename}.${item.format}`,
      headers: { cookie: s.cookie, range: 'bytes=999999999-' },
    });
    expect(range.statusCode).toBe(416);
    expect(range.json()).toEqual({ error: expect.any(String), code: 'rangeNotSatisfiable' });
  });
});
