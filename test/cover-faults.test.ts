// The session's cover under faults: a picture no output can carry refused at upload, and a merge
// that embeds the cover it took at its start though the cover is removed while it runs.
import { describe, expect, it } from 'vitest';
import { coverRef } from '../src/server/files/storage.js';
import type { MergeFn } from '../src/server/jobs/merge-processor.js';
import { useMediaApp } from './support/media-app.js';
import { makeImage } from './support/pictures.js';
import { multipartBody, type TestSession } from './support/server-harness.js';

/** The session whose cover the next merge removes as it starts, as a deleteCover at that moment would. */
let removeCoverOf: string | undefined;

const removingCover: MergeFn = async (inputs, output, opts) => {
  if (removeCoverOf) await env.app.files.remove(coverRef(removeCoverOf));
  return (await import('../src/engine/index.js')).mergeFiles(inputs, output, opts);
};

const env = useMediaApp({
  prefix: 'cover-faults-',
  tones: { 'one.mp3': { frequency: 300, seconds: 1 }, 'two.mp3': { frequency: 600, seconds: 1 } },
  deps: { merge: removingCover },
});

function postCover(s: TestSession, content: Buffer, filename: string) {
  const { body, contentType } = multipartBody([{ name: 'file', filename, content }]);
  return env.inject({
    method: 'POST',
    url: '/app/merge/cover',
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': contentType },
    payload: body,
  });
}

describe('the cover under faults', () => {
  it('refuses at upload an arithmetic-coded JPEG, which no FLAC can carry, naming it', async () => {
    const s = await env.session();
    const jpg = await makeImage(env.file('plain.jpg'), { size: '16x16' });
    const sof = [...jpg.keys()].find((at) => jpg[at] === 0xff && [0xc0, 0xc1, 0xc2].includes(jpg[at + 1]))!;
    const coded = Buffer.from(jpg);
    coded[sof + 1] = 0xc9;
    const res = await postCover(s, coded, 'coded.jpg');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'badCover', error: expect.stringMatching(/coded\.jpg/) });
    expect(
      (await env.inject({ method: 'GET', url: '/app/merge/cover', headers: { cookie: s.cookie } }))
        .statusCode,
    ).toBe(404);
  });

  it('refuses at upload a JPEG whose headers are right but whose picture does not decode', async () => {
    const s = await env.session();
    const jpg = await makeImage(env.file('whole.jpg'), { size: '16x16' });
    // The headers as they were up to the scan's, then noise for the coded picture.
    let sos = 2;
    while (jpg[sos + 1] !== 0xda) sos += 2 + jpg.readUInt16BE(sos + 2);
    const noise = Buffer.concat([
      jpg.subarray(0, sos + 2 + jpg.readUInt16BE(sos + 2)),
      Buffer.from([0x12, 0x34, 0x12, 0x34, 0x12, 0x34, 0x12, 0x34, 0xff, 0xd9]),
    ]);
    const res = await postCover(s, noise, 'noise.jpg');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'badCover',
      error: expect.stringMatching(/noise\.jpg.*does not decode/),
    });
    expect((await postCover(s, jpg, 'whole.jpg')).statusCode).toBe(200);
  });

  it('embeds the cover a merge took at its start though the cover is removed while it runs', async () => {
    const { s, items } = await env.sessionWith(['one.mp3', 'two.mp3']);
    const png = await makeImage(env.file('cover.png'), { size: '24x16' });
    expect((await postCover(s, png, 'cover.png')).statusCode).toBe(200);
    removeCoverOf = s.sid;
    try {
      const res = await env.merge(
        s,
        items.map((i) => i.id),
        { options: { format: 'flac' } },
      );
      expect(res.statusCode, res.body).toBe(200);
    } finally {
      removeCoverOf = undefined;
    }
    const [result] = (await env.app.store.listResults(s.sid)) as { cover: string | null }[];
    expect(result.cover).not.toBeNull();
    // And the session's cover really went while the merge ran.
    expect(
      (await env.inject({ method: 'GET', url: '/app/merge/cover', headers: { cookie: s.cookie } }))
        .statusCode,
    ).toBe(404);
  });
});
