// The shape of src as a whole: no import cycle between its files (type-only imports count: a type
// that has to come back the way it went lives in the wrong file), and no folder with more than 20
// source files (tests beside the code do not count). The checks are run on a made-up tree first,
// so a checker that cannot see a cycle or count a folder fails here too.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const MAX_SOURCE_FILES = 20;

const isSource = (name: string) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts');
/** Tests, and the contract suites they run, are not the folder's code. */
const isTest = (name: string) => /\.test\.tsx?$/.test(name) || /\.contract\.ts$/.test(name);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return isSource(e.name) ? [p] : [];
  });
}

/** The file a relative specifier names: a `.js` name is its `.ts` (or .tsx) source, a folder its index. */
function resolveSpecifier(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  const stem = base.replace(/\.(c|m)?js$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, path.join(base, 'index.ts')];
  return candidates.find((c) => {
    try {
      return statSync(c).isFile();
    } catch {
      return false;
    }
  });
}

/** Every file's relative imports, resolved: import and export froms, `import type`, `import()`. */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((r) => r.fileName)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolveSpecifier(file, spec))
      .filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Each cycle once, as the files around it (the first repeated at the end). */
function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return cycles;
}

/** Folders holding more than MAX_SOURCE_FILES non-test source files, with their counts. */
function crowdedFolders(files: string[]): string[] {
  const counts = new Map<string, number>();
  for (const f of files.filter((f) => !isTest(path.basename(f))))
    counts.set(path.dirname(f), (counts.get(path.dirname(f)) ?? 0) + 1);
  return [...counts].filter(([, n]) => n > MAX_SOURCE_FILES).map(([dir, n]) => `${dir}: ${n}`);
}

const shown = (files: string[]) => files.map((f) => path.relative(ROOT, f)).join(' -> ');

describe('the import graph of src', () => {
  const files = sourceFiles(path.join(ROOT, 'src'));

  it('reads every file and its imports', () => {
    expect(files.length).toBeGreaterThan(100);
    const graph = importGraph(files);
    // A spot check that resolution works on this tree: the engine's index reaches the merge.
    expect(graph.get(path.join(ROOT, 'src/engine/index.ts'))).toContain(
      path.join(ROOT, 'src/engine/merge/merge.ts'),
    );
  });

  it('has no cycle, type-only imports included', () => {
    expect(findCycles(importGraph(files)).map(shown)).toEqual([]);
  });

  it(`has no folder with more than ${MAX_SOURCE_FILES} source files`, () => {
    expect(crowdedFolders(files).map((d) => path.relative(ROOT, d))).toEqual([]);
  });
});

describe('the checks themselves, on a made-up tree', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'import-graph-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  };

  it('finds a cycle closed by a type-only import across folders, and none without it', () => {
    write('a/route.ts', "import { helper } from '../b/helper.js';\nexport const route = helper;\n");
    write(
      'b/helper.ts',
      "export const helper = 1;\nexport { other } from './other.js';\nimport type { Part } from '../a/types.js';\n",
    );
    write('b/other.ts', 'export const other = 2;\n');
    write('a/types.ts', "import type { route } from './route.js';\nexport type Part = typeof route;\n");
    const cycles = findCycles(importGraph(sourceFiles(dir)));
    expect(cycles.map((c) => c.map((f) => path.relative(dir, f)))).toEqual([
      ['a/route.ts', 'b/helper.ts', 'a/types.ts', 'a/route.ts'],
    ]);
    write('a/types.ts', 'export type Part = number;\n');
    expect(findCycles(importGraph(sourceFiles(dir)))).toEqual([]);
  });

  it('counts a folder over the limit, but not its tests', () => {
    for (let i = 0; i <= MAX_SOURCE_FILES; i++) write(`crowded/f${i}.test.ts`, '');
    write('crowded/store.contract.ts', '');
    for (let i = 0; i < MAX_SOURCE_FILES; i++) write(`crowded/f${i}.ts`, '');
    expect(crowdedFolders(sourceFiles(dir))).toEqual([]);
    write('crowded/one-more.tsx', '');
    expect(crowdedFolders(sourceFiles(dir))).toEqual([
      `${path.join(dir, 'crowded')}: ${MAX_SOURCE_FILES + 1}`,
    ]);
  });
});
