// A language missing a word of the English table does not compile: checked here twice, by the
// typecheck itself (the @ts-expect-error below fails it the day the object compiles) and by
// compiling a table without one key and reading the error TypeScript gives.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { en, type Locale } from './en.js';

const { hint: _dropped, ...withoutHint } = en;
// @ts-expect-error a table without "hint" is not a Locale
export const incomplete: Locale = { ...withoutHint };

const here = path.dirname(fileURLToPath(import.meta.url));

/** TypeScript's errors for `source`, compiled as a file beside en.ts with the project's options. */
function errorsOf(source: string): string[] {
  const file = path.join(here, 'fixture-locale.ts');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) =>
    name === file ? ts.createSourceFile(name, source, version) : getSourceFile(name, version, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file?.fileName === file)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('every language has every word', () => {
  it('a table without one key fails to compile, naming the key', () => {
    const missing = errorsOf(`
      import { en, type Locale } from './en.js';
      const { dismiss: _gone, ...rest } = en;
      export const xx: Locale = { ...rest };
    `);
    expect(missing.join('\n')).toMatch(/Property 'dismiss' is missing/);
  }, 60_000);

  it('a sentence with the wrong parts fails too; a complete table compiles', () => {
    const wrong = errorsOf(`
      import { en, type Locale } from './en.js';
      export const xx: Locale = { ...en, removed: (n: number) => String(n) };
    `);
    expect(wrong.join('\n')).toMatch(
      /'\(n: number\) => string' is not assignable to type '\(name: string\) => string'/,
    );
    expect(
      errorsOf(`
      import { en, type Locale } from './en.js';
      export const xx: Locale = { ...en, undo: 'Zurück' };
    `),
    ).toEqual([]);
  }, 60_000);
});
