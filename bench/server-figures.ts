// Figures for the server: upload memory, getDataJson throughput, merge overhead.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stats } from './measure.js';
import type { FigureGroup } from './race.js';
import type { Figure } from './report.js';
import { bigUploadFigure, loadFigures, loadList, mergeRoundTrip, uploadMany } from './server-calls.js';
import { openSession, withServer, type BrowserSession } from './server-process.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function curlUpload(base: string, s: BrowserSession, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-H',
      `cookie: ${s.cookie}`,
      '-H',
      `x-csrf-token: ${s.csrf}`,
      '-F',
      `appid=${s.appid}`,
      '-F',
      `files=@${file}`,
      `${base}/app/merge/upload`,
    ]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      if (out !== '200') reject(new Error(`upload answered ${out}`));
      else resolve(Number(process.hrtime.bigint() - start) / 1e9);
    });
  });
}

export const serverFigures: FigureGroup = (c, work, rounds, progress) =>
  withServer({ MAX_FILE_MB: '2000', MAX_FILES: '1000' }, async (server, s) => {
    const figures: Figure[] = [];

    // Upload of about 1 GB: server RSS growth while it streams, and time against curl to a file.
    const upload = {
      server,
      file: c.bigWav,
      copy: path.join(work, 'curl-copy.wav'),
      rounds,
      step: '1 GB upload',
      upload: () => curlUpload(server.base, s, c.bigWav),
    };
    figures.push(await bigUploadFigure(upload, progress, { name: 'upload of a 1 GB file over loopback' }));

    // getDataJson with 200 items, 50 connections.
    progress('getDataJson load');
    const s2 = await openSession(server.base);
    await uploadMany(server.base, s2, [...c.clips, ...c.clips].slice(0, 200));
    figures.push(...loadFigures('getDataJson, 200 items, 50 connections', await loadList(server.base, s2)));

    // mergemp3 round trip against the engine's own time on the same files.
    const s3 = await openSession(server.base);
    const three = c.hourMp3.slice(0, 3);
    const items = await uploadMany(server.base, s3, three);
    const { mergeFiles } = (await import(
      pathToFileURL(path.join(root, 'dist', 'engine', 'index.js')).href
    )) as typeof import('../src/engine/index.js');
    const rt: number[] = [];
    const engine: number[] = [];
    const out = path.join(work, 'engine-only.mp3');
    for (let r = 0; r < rounds; r++) {
      progress(`mergemp3 round trip (${r + 1}/${rounds})`);
      rt.push(await mergeRoundTrip(server.base, s3, items));
      const t = process.hrtime.bigint();
      await mergeFiles(three, out);
      engine.push(Number(process.hrtime.bigint() - t) / 1e6);
      rmSync(out, { force: true });
    }
    const overhead = stats(rt.map((v, i) => v - engine[i]));
    figures.push({
      name: 'mergemp3 round trip minus the engine (3 x 5 min MP3)',
      ours: overhead,
      peerName: '',
      unit: 'ms',
      extraTarget: { label: 'overhead at most 100 ms', ok: overhead.median <= 100 },
      note: `round trip ${stats(rt).median.toFixed(0)} ms, engine ${stats(engine).median.toFixed(0)} ms`,
    });
    return figures;
  });
