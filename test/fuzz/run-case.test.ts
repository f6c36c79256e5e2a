// The fuzz judge itself: stand-ins for the command line that misbehave in each way it must catch.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from '../support/audio-fixtures.js';
import { runCase } from './run-case.js';

let dir: string;
let cleanup: () => Promise<void>;
let good: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('fuzz-judge-'));
  good = await makeTone(path.join(dir, 'good.mp3'), { seconds: 1 });
});
afterAll(() => cleanup());

/** A stand-in CLI: `body` runs with `out` bound to the -o argument. */
async function standIn(name: string, body: string): Promise<string> {
  const file = path.join(dir, `${name}.cjs`);
  await writeFile(
    file,
    `const fs = require('node:fs'); const out = process.argv[process.argv.indexOf('-o') + 1];\n${body}\n`,
  );
  return file;
}

async function judge(name: string, body: string, opts: { dirty?: boolean; timeoutMs?: number } = {}) {
  const caseDir = path.join(dir, name);
  await mkdir(caseDir);
  return runCase({
    dir: caseDir,
    inputs: [good],
    mutated: good,
    timeoutMs: opts.timeoutMs ?? 10_000,
    inputDecodesDirty: async () => opts.dirty ?? false,
    bin: await standIn(name, body),
  });
}

/** What the real command line does when it refuses the damaged input. */
const refuse = () =>
  `process.stderr.write('audio-merge: ' + ${JSON.stringify(good)} + ': not audio\\n'); process.exit(1);`;
const kinds = (r: Awaited<ReturnType<typeof judge>>) => r.findings.map((f) => f.kind);

describe('the fuzz judge', () => {
  it('passes a clean refusal and a clean merge', async () => {
    expect(kinds(await judge('refuses', refuse()))).toEqual([]);
    expect(kinds(await judge('merges', `fs.copyFileSync(${JSON.stringify(good)}, out);`))).toEqual([]);
  });

  it('catches a crash, a hang, an unclear refusal and a stack trace', async () => {
    expect(kinds(await judge('crashes', 'process.exit(3);'))).toContain('crash');
    expect(kinds(await judge('throws', "throw new Error('boom');"))).toContain('crash');
    expect(kinds(await judge('hangs', 'setInterval(() => {}, 1000);', { timeoutMs: 500 }))).toEqual(['hang']);
    expect(kinds(await judge('mumbles', "process.stderr.write('oops\\nmore\\n'); process.exit(1);"))).toEqual(
      ['unclear-error'],
    );
    // an engine bug reaches the command line as a refusal that names no input
    expect(
      kinds(
        await judge(
          'bug',
          "process.stderr.write('audio-merge: Cannot read properties of undefined\\n'); process.exit(1);",
        ),
      ),
    ).toEqual(['unclear-error']);
  });

  it('catches a leftover partial file, a temporary folder, and a refusal that still wrote the output', async () => {
    expect(kinds(await judge('partial', `fs.writeFileSync(out + '.partial', ''); ${refuse()}`))).toEqual([
      'leftover',
    ]);
    expect(
      kinds(
        await judge(
          'tempdir',
          `fs.mkdirSync(require('node:path').join(process.cwd(), '.audio-merge-1-a-AAAAAA')); fs.copyFileSync(${JSON.stringify(good)}, out);`,
        ),
      ),
    ).toEqual(['leftover']);
    expect(kinds(await judge('wrote', `fs.writeFileSync(out, 'x'); ${refuse()}`))).toEqual(['leftover']);
  });

  it('catches an output that does not decode, unless the damaged input did not either', async () => {
    const broken = 'fs.writeFileSync(out, Buffer.alloc(5000, 0x41));';
    expect(kinds(await judge('garbage', broken))).toEqual(['bad-output']);
    expect(kinds(await judge('garbage-in', broken, { dirty: true }))).toEqual([]);
  });
});
