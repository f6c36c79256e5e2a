// Figure for resumable uploads: a 1 GB file sent with tus over loopback (create, one PATCH
// streaming the file, the server probing and storing it), against curl writing the same bytes to
// a file, and the server's RSS growth while it streams.
import { createReadStream, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Corpus } from './corpus.js';
import { runOnce, stats } from './measure.js';
import type { Figure } from './report.js';
import { openSession, startServer, type BrowserSession } from './server-process.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');

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
  const created = await send(new URL('/app/merge/tus/', base), 'POST', {
    ...auth,
    'upload-length': String(size),
    'upload-metadata': `filename ${b64(path.basename(file))},appid ${b64(s.appid)}`,
  });
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

export async function tusFigures(
  c: Corpus,
  work: string,
  rounds: number,
  progress: (m: string) => void,
): Promise<Figure[]> {
  const server = await startServer({ MAX_FILE_MB: '2000', MAX_FILES: '1000' });
  try {
    const s = await openSession(server.base);
    const growth: number[] = [];
    const tusTimes: number[] = [];
    const curlTimes: number[] = [];
    const copy = path.join(work, 'curl-copy-tus.wav');
    for (let r = 0; r < Math.max(3, Math.ceil(rounds / 2)); r++) {
      progress(`1 GB tus upload (${r + 1})`);
      const before = server.rss();
      let peak = before;
      const timer = setInterval(() => (peak = Math.max(peak, server.rss())), 20);
      tusTimes.push(await tusUpload(server.base, s, c.bigWav));
      clearInterval(timer);
      growth.push(Math.max(0, peak - before));
      curlTimes.push(
        (
          await runOnce({
            label: 'curl',
            cmd: 'curl',
            args: ['-s', '-o', copy, pathToFileURL(c.bigWav).href],
          })
        ).seconds,
      );
      rmSync(copy, { force: true });
    }
    return [
      {
        name: 'tus upload of a 1 GB file over loopback',
        ours: stats(tusTimes),
        peerName: 'curl writing the same bytes to a file',
        peer: stats(curlTimes),
        target: 2,
        extraTarget: {
          label: 'server RSS grows by at most 64 MB',
          ok: stats(growth).max <= 64 * 1024 * 1024,
        },
        note: `RSS growth ${(stats(growth).median / 2 ** 20).toFixed(1)} MB median, ${(stats(growth).max / 2 ** 20).toFixed(1)} MB max`,
      },
    ];
  } finally {
    await server.stop();
  }
}
