// Figures for the scaled mode (BENCH_ONLY=scaled): the same product on PostgreSQL, a BullMQ queue
// on Redis and an S3-compatible bucket (s3rver), side by side with the embedded default.
// The services are the ones `npm run test:scaled` starts (test/support/services.ts).
import { execFile } from 'node:child_process';
import { openAsBlob } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { tools } from '../test/support/audio-fixtures.js';
import {
  startPostgres,
  startRedis,
  startS3,
  S3_TEST_CREDENTIALS,
  type Service,
} from '../test/support/services.js';
import { stats } from './measure.js';
import type { Figure } from './report.js';
import {
  headers,
  openSession,
  startServer,
  startWorker,
  type BrowserSession,
  type RunningServer,
} from './server-process.js';

const exec = promisify(execFile);

async function fiveMinuteMp3s(work: string): Promise<string[]> {
  const files = [300, 500, 700].map((hz) => path.join(work, `five-${hz}.mp3`));
  await Promise.all(
    files.map((f, i) =>
      exec(tools.ffmpeg, [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=${300 + 200 * i}:sample_rate=44100:duration=300`,
        '-ac',
        '2',
        '-c:a',
        'libmp3lame',
        '-b:a',
        '128k',
        f,
      ]),
    ),
  );
  return files;
}

async function upload(base: string, s: BrowserSession, files: string[]): Promise<Array<{ id: string }>> {
  const items: Array<{ id: string }> = [];
  for (let i = 0; i < files.length; i += 20) {
    const form = new FormData();
    form.append('appid', s.appid);
    for (const f of files.slice(i, i + 20)) form.append('files', await openAsBlob(f), path.basename(f));
    const res = await fetch(`${base}/app/merge/upload`, {
      method: 'POST',
      headers: headers(s, false),
      body: form,
    });
    if (!res.ok) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    items.push(...((await res.json()) as { items: Array<{ id: string }> }).items);
  }
  return items;
}

async function roundTrip(
  server: RunningServer,
  s: BrowserSession,
  items: Array<{ id: string }>,
): Promise<number> {
  const t = process.hrtime.bigint();
  const res = await fetch(`${server.base}/app/merge/mergemp3`, {
    method: 'POST',
    headers: headers(s),
    body: JSON.stringify({ items }),
  });
  if ((await res.json()) !== 'success') throw new Error(`mergemp3 answered ${res.status}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/**
 * A second between the upload's answer and the merge, as a person takes to press the button: the
 * round trip then measures the merge, not the disk still writing the upload (fresh uploads made
 * the embedded merge 53 ms against 25 when merged at once).
 */
const SETTLE_MS = 1000;

/** Round trips on `a` and `b` in turn, after one untimed warm-up each; `fresh`: upload the files again before each. */
async function alternate(
  a: RunningServer,
  b: RunningServer,
  files: string[],
  rounds: number,
  fresh: boolean,
): Promise<[number[], number[]]> {
  const servers = [a, b] as const;
  const sessions = await Promise.all(servers.map((s) => openSession(s.base)));
  const items = await Promise.all(servers.map((s, k) => upload(s.base, sessions[k], files)));
  const times: [number[], number[]] = [[], []];
  for (let r = -1; r < rounds; r++) {
    for (const k of [0, 1] as const) {
      if (fresh && r >= 0) {
        items[k] = await upload(servers[k].base, sessions[k], files);
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      }
      const ms = await roundTrip(servers[k], sessions[k], items[k]);
      if (r >= 0) times[k].push(ms);
    }
  }
  return times;
}

function roundTripFigure(name: string, [embedded, scaled]: [number[], number[]]): Figure {
  const [emb, sc] = [stats(embedded), stats(scaled)];
  return {
    name,
    ours: sc,
    peerName: 'the embedded default (SQLite, in-process queue, DATA_DIR)',
    peer: emb,
    unit: 'ms',
    extraTarget: {
      label: 'at most 1.5x, or at most 150 ms more',
      ok: sc.median <= 1.5 * emb.median || sc.median - emb.median <= 150,
    },
    note: `${(sc.median - emb.median).toFixed(0)} ms more`,
  };
}

export async function scaledFigures(
  work: string,
  rounds: number,
  progress: (m: string) => void,
): Promise<Figure[]> {
  progress('scaled: starting PostgreSQL, Redis and s3rver');
  const services: Service[] = [];
  const [pg, redis, s3] = await Promise.all([startPostgres(), startRedis(), startS3('audio-merge-bench')]);
  services.push(pg, redis, s3);
  const servers: RunningServer[] = [];
  try {
    const three = await fiveMinuteMp3s(work);
    const scaledEnv = {
      DATABASE_URL: pg.url,
      REDIS_URL: redis.url,
      S3_ENDPOINT: s3.url,
      S3_BUCKET: s3.bucket,
      S3_REGION: S3_TEST_CREDENTIALS.region,
      S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    };
    const embedded = await startServer({ MAX_FILES: '1000' });
    servers.push(embedded);
    const scaled = await startServer({ MAX_FILES: '1000', ...scaledEnv });
    servers.push(scaled);

    // mergemp3 round trip, alternating embedded and scaled after one untimed warm-up each: the same
    // three uploads merged again and again, as `npm start` runs the scaled mode (ROLE=all).
    progress('scaled: mergemp3 round trip, ROLE=all');
    const figures: Figure[] = [
      roundTripFigure(
        'mergemp3 round trip, 3 x 5 min MP3: scaled (PostgreSQL, BullMQ, S3; ROLE=all) vs embedded',
        await alternate(embedded, scaled, three, rounds, false),
      ),
    ];

    // getDataJson, 200 items, 50 connections: through PostgreSQL, and the embedded one beside it.
    const small = path.join(work, 'clip.mp3');
    await exec(tools.ffmpeg, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=duration=1',
      '-c:a',
      'libmp3lame',
      small,
    ]);
    const load = async (server: RunningServer) => {
      const s = await openSession(server.base);
      await upload(
        server.base,
        s,
        Array.from({ length: 200 }, () => small),
      );
      const options = {
        url: `${server.base}/app/merge/getDataJson`,
        method: 'POST' as const,
        connections: 50,
        headers: headers(s),
        body: JSON.stringify({ appid: s.appid }),
      };
      await autocannon({ ...options, duration: 2 });
      const result = await autocannon({ ...options, duration: 10 });
      if (result.non2xx > 0) throw new Error(`getDataJson answered ${result.non2xx} non-2xx`);
      return result;
    };
    progress('scaled: getDataJson load, embedded');
    const embLoad = await load(embedded);
    progress('scaled: getDataJson load, PostgreSQL');
    const pgLoad = await load(scaled);
    const rps = stats([pgLoad.requests.average]);
    const p99 = stats([pgLoad.latency.p99]);
    figures.push(
      {
        name: 'getDataJson through PostgreSQL, 200 items, 50 connections: throughput',
        ours: rps,
        unit: 'req/s',
        peerName: 'embedded (SQLite) on the same machine, same run',
        peer: stats([embLoad.requests.average]),
        extraTarget: { label: 'at least 3,000 req/s', ok: rps.median >= 3000 },
      },
      {
        name: 'getDataJson through PostgreSQL, 200 items, 50 connections: p99 latency',
        ours: p99,
        unit: 'ms',
        peerName: 'embedded (SQLite) on the same machine, same run',
        peer: stats([embLoad.latency.p99]),
        extraTarget: { label: 'p99 at most 25 ms', ok: p99.median <= 25 },
      },
    );

    // The same with web and merges in two processes, each round on fresh uploads: the worker holds
    // no local copy, so it reads all three from the bucket (a first merge on a worker).
    await scaled.stop();
    servers.splice(servers.indexOf(scaled), 1);
    const worker = await startWorker({ MAX_FILES: '1000', ...scaledEnv });
    servers.push(worker);
    const web = await startServer({ MAX_FILES: '1000', ROLE: 'web', ...scaledEnv });
    servers.push(web);
    progress('scaled: mergemp3 round trip, ROLE=web + ROLE=worker, fresh uploads');
    figures.push(
      roundTripFigure(
        'mergemp3 round trip, 3 x 5 min MP3, each round fresh uploads: web + worker processes (the worker reads every input from S3) vs embedded',
        await alternate(embedded, web, three, rounds, true),
      ),
    );
    return figures;
  } finally {
    await Promise.allSettled(servers.map((s) => s.stop()));
    await Promise.allSettled(services.map((s) => s.stop()));
  }
}
