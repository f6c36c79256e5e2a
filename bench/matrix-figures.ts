// The conformance matrix's run time (npm run test:conformance, test/conformance/): a figure with
// no target, so a change that makes the matrix slower is seen. The corpus is made first, untimed
// (it is cached between runs); the figure is one whole run of the matrix on it.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusFiles } from '../test/conformance/corpus.js';
import { selectedCases } from '../test/conformance/cases.js';
import { stats } from './measure.js';
import type { Figure } from './report.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** One run of the matrix: its wall time and vitest's exit code. */
function runMatrix(): Promise<{ seconds: number; code: number | null }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.conformance.config.ts'],
      { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    child.on('error', reject);
    child.on('close', (code) => resolve({ seconds: Number(process.hrtime.bigint() - started) / 1e9, code }));
  });
}

export async function matrixFigures(progress: (msg: string) => void): Promise<Figure[]> {
  const cases = selectedCases();
  progress(`matrix: the corpus for ${cases.length} cases`);
  const recipes = [...new Map(cases.flatMap((c) => c.inputs).map((r) => [JSON.stringify(r), r])).values()];
  await corpusFiles(recipes);
  progress('matrix: one run');
  const run = await runMatrix();
  return [
    {
      name: `conformance matrix, ${cases.length} cases${process.env.CONFORMANCE === 'engine' ? ' (engine set)' : ''}`,
      ours: stats([run.seconds]),
      peerName: '',
      note: run.code === 0 ? 'all passed' : `vitest exit ${run.code}: some cases fail`,
    },
  ];
}
