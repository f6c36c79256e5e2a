// npm run fuzz [-- --budget small|medium|large] [--cases N] [--time SECONDS] [--seed S] [--jobs J]
//              [--case-timeout SECONDS] [--findings DIR]
// Valid MP3, AAC (m4a), FLAC and WAV files are made at start; each case mutates one (mutate.ts)
// and runs the built command line on it (run-case.ts). Prints one summary line; exits 1 when
// anything was found, with each finding's inputs, seed and command saved under the findings folder.
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decodeErrors, makeTone } from '../support/audio-fixtures.js';
import { cliBin } from '../support/cli-run.js';
import { mutate, seededRandom } from './mutate.js';
import { runCase, type CaseResult } from './run-case.js';

const BUDGETS = {
  // CI: about 40 s on two cores.
  small: { cases: 100, seconds: 40 },
  medium: { cases: 400, seconds: 600 },
  large: { cases: 4000, seconds: 3600 },
} as const;

interface Options {
  cases: number;
  seconds: number;
  seed: number;
  jobs: number;
  caseTimeoutMs: number;
  findings: string;
}

function parseOptions(argv: string[]): Options {
  const get = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const budget = BUDGETS[(get('budget') ?? 'small') as keyof typeof BUDGETS];
  if (!budget) throw new Error(`--budget must be one of ${Object.keys(BUDGETS).join(', ')}`);
  const num = (name: string, fallback: number): number => {
    const v = get(name);
    const n = v === undefined ? fallback : Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number, got ${v}`);
    return n;
  };
  return {
    cases: num('cases', budget.cases),
    seconds: num('time', budget.seconds),
    seed: num('seed', Number(process.env.FUZZ_SEED ?? 1)),
    jobs: Math.max(1, num('jobs', Math.min(2, os.availableParallelism()))),
    caseTimeoutMs: num('case-timeout', 30) * 1000,
    findings: path.resolve(get('findings') ?? 'fuzz-findings'),
  };
}

/** The valid files every mutation starts from: short, so a case costs little. */
async function makeSources(dir: string): Promise<string[]> {
  return Promise.all([
    makeTone(path.join(dir, 'cbr.mp3'), { seconds: 2, frequency: 440 }),
    makeTone(path.join(dir, 'vbr.mp3'), {
      seconds: 2,
      frequency: 550,
      sampleRate: 22050,
      channels: 1,
      codecArgs: ['-c:a', 'libmp3lame', '-q:a', '5'],
    }),
    makeTone(path.join(dir, 'aac.m4a'), { seconds: 2, frequency: 660 }),
    makeTone(path.join(dir, 'lossless.flac'), { seconds: 2, frequency: 770 }),
    makeTone(path.join(dir, 'pcm.wav'), { seconds: 1, frequency: 880, sampleRate: 22050 }),
  ]);
}

interface Planned {
  index: number;
  source: string;
  ops: string[];
  withClean: 'none' | 'before' | 'after';
}

async function main(): Promise<number> {
  const opts = parseOptions(process.argv.slice(2));
  const work = path.join(os.tmpdir(), `audio-merge-fuzz-${process.pid}`);
  await mkdir(work, { recursive: true });
  const started = Date.now();
  const sources = await makeSources(work);
  const sourceBytes = await Promise.all(sources.map((s) => readFile(s)));
  const clean = sources[0];
  const counts = new Map<string, number>();
  const found: Array<{ plan: Planned; result: CaseResult }> = [];
  let next = 0;
  let done = 0;

  async function one(index: number): Promise<void> {
    // Every case has its own seed, so any one can be replayed alone.
    const rng = seededRandom(opts.seed * 1_000_003 + index);
    const pick = Math.floor(rng() * sources.length);
    const mutated = mutate(sourceBytes[pick], rng);
    const withClean = (['none', 'before', 'after'] as const)[Math.floor(rng() * 3)];
    const plan: Planned = { index, source: path.basename(sources[pick]), ops: mutated.ops, withClean };
    const dir = path.join(work, `case-${index}`);
    await mkdir(dir);
    const input = path.join(dir, `mutated${path.extname(sources[pick])}`);
    await writeFile(input, mutated.bytes);
    const inputs = withClean === 'none' ? [input] : withClean === 'before' ? [clean, input] : [input, clean];
    const result = await runCase({
      dir,
      inputs,
      mutated: input,
      timeoutMs: opts.caseTimeoutMs,
      inputDecodesDirty: async () => (await decodeErrors(input).catch((e: Error) => e.message)) !== '',
    });
    const outcome = result.code === 0 ? 'merged' : result.code === 1 ? 'refused' : 'other';
    counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    if (result.findings.length > 0) {
      found.push({ plan, result });
      await saveFinding(opts, plan, result, inputs, input);
    }
    await rm(dir, { recursive: true, force: true });
    done++;
  }

  async function worker(): Promise<void> {
    while (next < opts.cases && Date.now() - started < opts.seconds * 1000) await one(next++);
  }
  try {
    await Promise.all(Array.from({ length: opts.jobs }, worker));
  } finally {
    await rm(work, { recursive: true, force: true });
  }

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const kinds = [...new Set(found.flatMap((f) => f.result.findings.map((x) => x.kind)))];
  const tally = [...counts].map(([k, v]) => `${v} ${k}`).join(', ');
  console.log(
    `fuzz: ${done} cases in ${seconds} s (seed ${opts.seed}; ${tally || 'none run'}): ` +
      (found.length === 0
        ? 'no findings'
        : `${found.length} findings (${kinds.join(', ')}), saved in ${opts.findings}`),
  );
  for (const f of found) {
    console.log(
      `  case ${f.plan.index} (${f.plan.source}: ${f.plan.ops.join('; ')}): ${f.result.findings.map((x) => `${x.kind}: ${x.detail}`).join('; ')}`,
    );
  }
  return found.length === 0 ? 0 : 1;
}

async function saveFinding(
  opts: Options,
  plan: Planned,
  result: CaseResult,
  inputs: string[],
  mutated: string,
): Promise<void> {
  const dir = path.join(opts.findings, `seed-${opts.seed}-case-${plan.index}`);
  await mkdir(dir, { recursive: true });
  const names: string[] = [];
  for (const file of inputs) {
    const name = file === mutated ? path.basename(mutated) : `clean${path.extname(file)}`;
    await copyFile(file, path.join(dir, name));
    names.push(name);
  }
  const replay = `node ${path.relative(process.cwd(), cliBin)} -o out.mp3 ${names.join(' ')}`;
  await writeFile(
    path.join(dir, 'finding.json'),
    `${JSON.stringify({ seed: opts.seed, case: plan.index, source: plan.source, ops: plan.ops, inputs: names, replay, ...result }, null, 2)}\n`,
  );
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`fuzz: ${(err as Error).stack ?? String(err)}`);
    process.exit(2);
  },
);
