// The layer rules of eslint.config.js, run through ESLint's own API on source text placed (by
// name) in each folder: every zone refuses an import that crosses it and lets the allowed ones by.
// The imports name real files, because the rule works on resolved paths.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: ROOT });

/** The messages ESLint reports for `code` as if it were the file `file` (relative to the repo). */
async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const layerProblems = async (file: string, code: string) =>
  (await problems(file, code)).filter((m) => /no-restricted-(paths|imports)/.test(m));

describe('lint zones', () => {
  it('keeps the mp3 frame library free of ffmpeg, the pipeline and child processes', async () => {
    const file = 'src/engine/mp3/fixture.ts';
    expect(await layerProblems(file, "export { runFfmpeg } from '../ffmpeg/runner.js';\n")).toEqual([
      expect.stringMatching(/no-restricted-paths.*codec-free frame library/),
    ]);
    expect(await layerProblems(file, "export { mergeFiles } from '../pipeline/merge.js';\n")).toHaveLength(1);
    expect(await layerProblems(file, "export { spawn } from 'node:child_process';\n")).toEqual([
      expect.stringMatching(/no-restricted-imports.*node:child_process/),
    ]);
    expect(
      await layerProblems(
        file,
        "export * from './frames.js';\nexport * from '../io/sync-io.js';\nexport * from '../errors.js';\n",
      ),
    ).toEqual([]);
  });

  it('lets the server, the command line and main.ts reach the engine only through its index', async () => {
    for (const [file, inside, index] of [
      ['src/server/jobs/fixture.ts', '../../engine/errors.js', '../../engine/index.js'],
      ['src/server/http/routes/fixture.ts', '../../../engine/pipeline/probe.js', '../../../engine/index.js'],
      ['src/cli/fixture.ts', '../engine/mp3/scan.js', '../engine/index.js'],
      ['src/main.ts', './engine/ffmpeg/tools.js', './engine/index.js'],
    ]) {
      expect(await layerProblems(file, `export * from '${inside}';\n`), file).toEqual([
        expect.stringMatching(/no-restricted-paths.*through src\/engine\/index\.ts/),
      ]);
      expect(await layerProblems(file, `export * from '${index}';\n`), file).toEqual([]);
    }
  });

  it('limits the widget to src/widget, src/shared and npm packages', async () => {
    const file = 'src/widget/components/fixture.tsx';
    for (const foreign of [
      '../../server/config.js',
      '../../engine/index.js',
      '../../cli/args.js',
      '../../main.js',
    ]) {
      expect(await layerProblems(file, `export * from '${foreign}';\n`), foreign).toEqual([
        expect.stringMatching(/no-restricted-paths.*only src\/widget and src\/shared/),
      ]);
    }
    const allowed =
      "export * from '../store/state.js';\nexport * from '../../shared/types.js';\nexport { useState } from 'react';\n";
    expect(await layerProblems(file, allowed)).toEqual([]);
  });

  it('keeps src/shared free of every other src folder', async () => {
    const file = 'src/shared/fixture.ts';
    expect(await layerProblems(file, "export * from '../widget/store/state.js';\n")).toHaveLength(1);
    expect(await layerProblems(file, "export * from '../server/config.js';\n")).toHaveLength(1);
    expect(await layerProblems(file, "export * from '../main.js';\n")).toHaveLength(1);
    expect(await layerProblems(file, "export * from './types.js';\n")).toEqual([]);
  });

  it('keeps the engine free of its consumers', async () => {
    expect(
      await layerProblems('src/engine/pipeline/fixture.ts', "export * from '../../server/config.js';\n"),
    ).toHaveLength(1);
    expect(
      await layerProblems('src/engine/pipeline/fixture.ts', "export * from '../../cli/args.js';\n"),
    ).toHaveLength(1);
    expect(
      await layerProblems('src/engine/pipeline/fixture.ts', "export * from '../ffmpeg/runner.js';\n"),
    ).toEqual([]);
  });

  it('refuses test/ code in src/ but lets tests beside the code use test/support', async () => {
    const code = "export * from '../../../test/support/audio-fixtures.js';\n";
    expect(await layerProblems('src/server/data/fixture.ts', code)).toEqual([
      expect.stringMatching(/no-restricted-paths.*Nothing in src\/ imports test\//),
    ]);
    expect(await layerProblems('src/server/data/fixture.test.ts', code)).toEqual([]);
  });
});
