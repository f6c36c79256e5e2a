// Figures for the scaled mode (BENCH_ONLY=scaled): the same product on PostgreSQL, a BullMQ queue
// on Redis and an S3-compatible bucket (s3rver), side by side with the embedded default.
// The services are the ones `npm run test:scaled` starts (test/support/services.ts).
import path from 'node:path';
import {
  startPostgres,
  startRedis,
  startS3,
  S3_TEST_CREDENTIALS,
  type Service,
} from '../test/support/services.js';
import { ffmpeg } from './contenders.js';
import { stats } from './measure.js';
import type { Figure } from './report.js';
import { loadFigures, loadList, mergeRoundTrip, uploadMany } from './server-calls.js';
import { openSession, startServer, startWorker, type RunningServer } from './server-process.js';

async function fiveMinuteMp3s(work: string): Promise<string[]> {
  const files = [300, 500, 700].map((hz) => path.join(work, `five-${hz}.mp3`));
  const tone = (i: number) => `sine=frequency=${300 + 200 * i}:sample_rate=44100:duration=300`;
  await Promise.all(
    files.map((f, i) =>
      ffmpeg(['-f', 'lavfi', '-i', tone(i), '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k', f]),
    ),
  );
  return files;
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
  const items = await Promise.all(servers.map((s, k) => uploadMany(s.base, sessions[k], files)));
  const times: [number[], number[]] = [[], []];
  for (let r = -1; r < rounds; r++) {
    for (const k of [0, 1] as const) {
      if (fresh && r >= 0) {
        items[k] = await uploadMany(servers[k].base, sessions[k], files);
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      }
      const ms = await mergeRoundTrip(servers[k].base, sessions[k], items[k]);
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
    await ffmpeg(['-f', 'lavfi', '-i', 'sine=duration=1', '-c:a', 'libmp3lame', small]);
    const load = async (server: RunningServer) => {
      const s = await openSession(server.base);
      await uploadMany(
        server.base,
        s,
        Array.from({ length: 200 }, () => small),
      );
      return loadList(server.base, s);
    };
    progress('scaled: getDataJson load, embedded');
    const embLoad = await load(embedded);
    progress('scaled: getDataJson load, PostgreSQL');
    const pgLoad = await load(scaled);
    figures.push(
      ...loadFigures('getDataJson through PostgreSQL, 200 items, 50 connections', pgLoad, {
        name: 'embedded (SQLite) on the same machine, same run',
        load: embLoad,
      }),
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
