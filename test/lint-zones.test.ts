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
    for (const pipeline of ['../merge/merge.js', '../plan/chunks.js', '../routes/route-mp3.js'])
      expect(await layerProblems(file, `export * from '${pipeline}';\n`), pipeline).toHaveLength(1);
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
      ['src/server/http/routes/fixture.ts', '../../../engine/inputs/probe.js', '../../../engine/index.js'],
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
    for (const folder of ['merge', 'routes', 'plan', 'ffmpeg']) {
      const file = `src/engine/${folder}/fixture.ts`;
      for (const consumer of ['../../server/config.js', '../../cli/args.js'])
        expect(await layerProblems(file, `export * from '${consumer}';\n`), file).toEqual([
          expect.stringMatching(/no-restricted-paths.*knows nothing of its consumers/),
        ]);
    }
    expect(
      await layerProblems('src/engine/merge/fixture.ts', "export * from '../ffmpeg/runner.js';\n"),
    ).toEqual([]);
  });

  it('keeps plan/ pure: no process, no file, nothing above it, and of ffmpeg/ only its types', async () => {
    const file = 'src/engine/plan/fixture.ts';
    for (const [code, why] of [
      ["export { measureInput } from '../ffmpeg/loudness.js';\n", /no-restricted-paths.*pure arithmetic/],
      ["import { measureInput, type Measurement } from '../ffmpeg/loudness.js';\n", /pure arithmetic/],
      ["export * from '../io/sync-io.js';\n", /pure arithmetic/],
      ["export * from '../mp3/scan.js';\n", /pure arithmetic/],
      ["export * from '../mp4/read.js';\n", /pure arithmetic/],
      ["export * from '../inputs/probe.js';\n", /pure arithmetic/],
      ["export * from '../sound/pcm-mix.js';\n", /pure arithmetic/],
      ["export * from '../timeline/decode.js';\n", /pure arithmetic/],
      ["export * from '../routes/route-pcm.js';\n", /pure arithmetic/],
      ["export * from '../merge/merge.js';\n", /pure arithmetic/],
      ["import { readFileSync } from 'node:fs';\n", /no-restricted-imports.*node:fs/],
      ["import { readFile } from 'node:fs/promises';\n", /no-restricted-imports.*node:fs\/promises/],
      ["import { spawn } from 'node:child_process';\n", /no-restricted-imports.*node:child_process/],
    ] as const)
      expect(await layerProblems(file, code), code).toEqual([expect.stringMatching(why)]);
    const allowed = [
      "import type { Measurement } from '../ffmpeg/loudness.js';",
      "import { type Silence } from '../ffmpeg/silence-log.js';",
      "export type { PcmFormat } from '../ffmpeg/transcode.js';",
      "export * from './formats.js';",
      "export { GAIN_STEP_DB } from '../mp3/gain.js';",
      "export * from '../../shared/sound-limits.js';",
      "export type { ProbeResult } from '../types.js';",
      "import path from 'node:path';",
    ];
    expect(await layerProblems(file, allowed.join('\n') + '\n')).toEqual([]);
    // Its tests may read what they need from the disk.
    expect(
      await layerProblems('src/engine/plan/fixture.test.ts', "import { readFileSync } from 'node:fs';\n"),
    ).toEqual([]);
  });

  it('lets no route import another: what they share lives in output/, timeline/, sound/ and plan/', async () => {
    const file = 'src/engine/routes/fixture.ts';
    for (const route of ['./route-mp3.js', './route-mp4.js', './route-pcm.js', './route-mixed.js'])
      expect(await layerProblems(file, `export * from '${route}';\n`), route).toEqual([
        expect.stringMatching(/no-restricted-paths.*A route imports no other route/),
      ]);
    expect(await layerProblems(file, "export * from '../merge/merge.js';\n")).toHaveLength(1);
    const shared = [
      '../output/mp3-output.js',
      '../output/route-context.js',
      '../timeline/decode.js',
      '../sound/pcm-mix.js',
      '../plan/crossfade.js',
      '../inputs/meta.js',
      '../mp3/join.js',
      '../ffmpeg/transcode.js',
    ];
    expect(await layerProblems(file, shared.map((s) => `export * from '${s}';`).join('\n') + '\n')).toEqual(
      [],
    );
  });

  it('layers the pipeline: inputs/, output/, then sound/ and timeline/ apart, each below routes/ and merge/', async () => {
    const refused: [string, string, RegExp][] = [
      ['inputs', '../output/route-context.js', /inputs\/ imports only/],
      ['inputs', '../sound/sound-stage.js', /inputs\/ imports only/],
      ['output', '../sound/sound-stage.js', /output\/ imports only/],
      ['output', '../timeline/decode.js', /output\/ imports only/],
      ['output', '../routes/route-mp3.js', /output\/ imports only/],
      ['sound', '../timeline/timeline-encode.js', /sound\/ imports only/],
      ['sound', '../routes/route-mixed.js', /sound\/ imports only/],
      ['timeline', '../sound/pcm-mix.js', /timeline\/ imports only/],
      ['timeline', '../routes/route-pcm.js', /timeline\/ imports only/],
      ['ffmpeg', '../inputs/probe.js', /The tools/],
      ['io', '../output/output-file.js', /The tools/],
      ['mp4', '../timeline/aac-timeline.js', /The tools/],
    ];
    for (const [folder, target, why] of refused)
      expect(
        await layerProblems(`src/engine/${folder}/fixture.ts`, `export * from '${target}';\n`),
        target,
      ).toEqual([expect.stringMatching(why)]);
    // Only the engine's index imports merge/.
    for (const folder of ['inputs', 'output', 'sound', 'timeline', 'routes', 'plan', 'ffmpeg', 'io', 'mp4'])
      expect(
        await layerProblems(`src/engine/${folder}/fixture.ts`, "export * from '../merge/merge.js';\n"),
        folder,
      ).toHaveLength(1);
    expect(await layerProblems('src/engine/types.ts', "export * from './merge/merge.js';\n")).toHaveLength(1);
    expect(await layerProblems('src/engine/index.ts', "export * from './merge/merge.js';\n")).toEqual([]);
    const allowed: [string, string][] = [
      ['inputs', '../plan/chapters.js'],
      ['output', '../inputs/meta.js'],
      ['sound', '../output/route-context.js'],
      ['timeline', '../output/mp3-output.js'],
      ['ffmpeg', '../plan/formats.js'],
    ];
    for (const [folder, target] of allowed)
      expect(
        await layerProblems(`src/engine/${folder}/fixture.ts`, `export * from '${target}';\n`),
        target,
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
