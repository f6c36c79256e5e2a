// `npm run soak -- --people N --minutes M` (default 200 and 5): N simulated people on the scaled
// mode this script starts on loopback (2 web and 2 worker processes on PostgreSQL, Redis and
// s3rver), arriving over the first 70 % of M minutes, while a worker, a web process and Redis are
// each killed with SIGKILL and started again once. Prints the figures of soak-report.ts and exits
// non-zero on a lost merge or a file left behind. Logs stay in the printed folder when it fails.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeTone } from '../support/audio-fixtures.js';
import { parseSoakArgs } from './soak-args.js';
import { startCluster, type Cluster } from './soak-cluster.js';
import { runPerson, type MediaFile, type PersonDeps } from './soak-person.js';
import { exitCodeOf, formatReport, summarize, type MergeFate, type SoakFigures } from './soak-report.js';

/**
 * After the run's minutes, how long merges may still take to end before they count as lost: 3 min,
 * or 3 s a person when more (a crowd's merges queue behind two single-merge workers).
 */
const graceMs = (people: number) => Math.max(180_000, people * 3000);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Small files of mixed formats, rates and channels, made once; people pick 3 to 6 of them. */
async function makeMedia(dir: string): Promise<MediaFile[]> {
  const specs: Array<[string, Parameters<typeof makeTone>[1]]> = [
    ['one.mp3', { frequency: 300, seconds: 2.5 }],
    ['two.mp3', { frequency: 350, seconds: 3, sampleRate: 22050, channels: 1 }],
    ['three.wav', { frequency: 400, seconds: 2 }],
    ['four.flac', { frequency: 450, seconds: 3 }],
    ['five.ogg', { frequency: 500, seconds: 2.5 }],
    ['six.m4a', { frequency: 550, seconds: 3 }],
    ['seven.opus', { frequency: 600, seconds: 2, sampleRate: 48000 }],
    ['eight.wav', { frequency: 650, seconds: 2.5, sampleRate: 48000, channels: 1 }],
  ];
  return Promise.all(
    specs.map(async ([filename, tone]) => {
      const file = await makeTone(path.join(dir, filename), tone);
      return { path: file, filename, size: (await stat(file)).size };
    }),
  );
}

/** The three faults, at 20 %, 45 % and 70 % of the run, each process back a moment later. */
async function makeFaults(cluster: Cluster, t0: number, durationMs: number, faults: SoakFigures['faults']) {
  const at = (share: number) => pause(Math.max(0, t0 + share * durationMs - Date.now()));
  const note = (what: string) => faults.push({ at: (Date.now() - t0) / 1000, what });
  await at(0.2);
  await cluster.workers[0].kill();
  note(`${cluster.workers[0].name} killed`);
  await pause(2000);
  await cluster.workers[0].start();
  note(`${cluster.workers[0].name} back`);
  await at(0.45);
  await cluster.webs[1].kill();
  note(`${cluster.webs[1].name} killed`);
  await pause(2000);
  await cluster.webs[1].start();
  note(`${cluster.webs[1].name} back`);
  await at(0.7);
  await cluster.redis.crash();
  note('redis killed and back');
}

/**
 * s3rver (in this process) removes a folder it finds empty after a delete, and a put into that
 * folder at the same moment fails on an unhandled stream error that would end the soak. That
 * request then fails (the server sees a bucket error, as from any flaky bucket); the soak goes on
 * and counts them. MinIO and S3 have no such folders.
 */
function tolerateS3rverRace(seen: string[]): void {
  process.on('uncaughtException', (err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' && String(err.path).includes('_S3rver_')) seen.push(String(err.path));
    else throw err;
  });
}

async function main(): Promise<number> {
  const args = parseSoakArgs(process.argv.slice(2));
  // Ports of its own, away from the scaled suites' range (41700 and up), which may be running.
  process.env.SCALED_PORT_BASE ??= '43700';
  const work = await mkdtemp(path.join(os.tmpdir(), 'am-soak-'));
  console.log(`soak: ${args.people} people, ${args.minutes} min; logs in ${work}`);
  const media = await makeMedia(work);
  const s3rverRaces: string[] = [];
  tolerateS3rverRace(s3rverRaces);
  const cluster = await startCluster(work);
  let failed = true;
  try {
    const durationMs = args.minutes * 60_000;
    const t0 = Date.now();
    const deadline = t0 + durationMs + graceMs(args.people);
    const faults: SoakFigures['faults'] = [];
    const stopped: string[] = [];
    const deps: PersonDeps = {
      webs: cluster.webs,
      media,
      deadline,
      getDataJsonMs: [],
      endLines: cluster.endLines,
    };
    let faultFailed: string | undefined;
    // A process that cannot start again after its kill fails the soak, saying why.
    const faulting = makeFaults(cluster, t0, durationMs, faults).catch((err: unknown) => {
      faultFailed = (err as Error).message;
    });
    const people = Array.from({ length: args.people }, async (_, i) => {
      await pause((i / args.people) * durationMs * 0.7);
      return runPerson(i, deps).catch((err: unknown) => {
        stopped.push(`person ${i}: ${(err as Error).message}`);
        return null;
      });
    });
    // A person still busy well past the deadline is not waited for: their merge is lost.
    const hung = pause(deadline - t0 + 30_000).then(() => 'hung' as const);
    const settled = await Promise.all(people.map((p) => Promise.race([p, hung])));
    await faulting;
    const elapsedSeconds = (Date.now() - t0) / 1000;
    const merges: MergeFate[] = settled.flatMap((fate, i) => {
      if (fate === 'hung') return [{ kind: 'lost' as const, why: `person ${i}: still waiting at the end` }];
      if (fate === null) return [];
      const line = cluster.endLines.get(`soak-${i}`);
      return [fate.kind === 'succeeded' ? { ...fate, engineSeconds: line?.engineSeconds ?? null } : fate];
    });
    const leftovers = await cluster.finish();
    const figures: SoakFigures = {
      people: args.people,
      minutes: args.minutes,
      elapsedSeconds,
      merges,
      getDataJsonMs: deps.getDataJsonMs,
      peakRss: Object.fromEntries(cluster.peakRss),
      leftovers,
      faults,
      stopped,
    };
    const report = summarize(figures);
    console.log(formatReport(report, figures));
    if (s3rverRaces.length > 0)
      console.log(`s3rver's own folder race (a bucket error to the server): ${s3rverRaces.length}`);
    if (faultFailed) console.log(`soak: FAILED: a process did not come back after its kill: ${faultFailed}`);
    const code = faultFailed ? 1 : exitCodeOf(report);
    failed = code !== 0;
    return code;
  } catch (err) {
    await cluster.abort();
    throw err;
  } finally {
    if (!failed) await rm(work, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`soak: ${(err as Error).stack ?? String(err)}`);
    process.exit(2);
  },
);
