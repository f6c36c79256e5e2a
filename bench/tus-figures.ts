// Figure for resumable uploads: a 1 GB file sent with tus over loopback (create, one PATCH
// streaming the file, the server probing and storing it), against curl writing the same bytes to
// a file, and the server's RSS growth while it streams.
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { FigureGroup } from './race.js';
import { bigUploadFigure, tusCreation } from './server-calls.js';
import { withServer, type BrowserSession } from './server-process.js';

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  file?: string,
): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: { 'tus-resumable': '1.0.0', ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('error', reject);
    if (file) createReadStream(file, { highWaterMark: 1024 * 1024 }).pipe(req);
    else req.end();
  });
}

/** One tus upload of `file`, start to stored item; seconds. */
async function tusUpload(base: string, s: BrowserSession, file: string): Promise<number> {
  const size = statSync(file).size;
  const auth = { cookie: s.cookie, 'x-csrf-token': s.csrf };
  const start = process.hrtime.bigint();
  const created = await send(new URL('/app/merge/tus/', base), 'POST', { ...auth, ...tusCreation(s, file) });
  if (created.status !== 201 || !created.location) throw new Error(`tus creation answered ${created.status}`);
  const done = await send(
    new URL(created.location, base),
    'PATCH',
    {
      ...auth,
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
      'content-length': String(size),
    },
    file,
  );
  if (done.status !== 200) throw new Error(`tus upload answered ${done.status}`);
  return Number(process.hrtime.bigint() - start) / 1e9;
}

export const tusFigures: FigureGroup = async (c, work, rounds, progress) => {
  return withServer({ MAX_FILE_MB: '2000', MAX_FILES: '1000' }, async (server, s) => {
    const upload = {
      server,
      file: c.bigWav,
      copy: path.join(work, 'curl-copy-tus.wav'),
      rounds,
      step: '1 GB tus upload',
      upload: () => tusUpload(server.base, s, c.bigWav),
    };
    return [
      await bigUploadFigure(upload, progress, { name: 'tus upload of a 1 GB file over loopback', target: 2 }),
    ];
  });
};
