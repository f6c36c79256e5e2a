// Every file the repository names, in a code comment or in its Markdown, is a file that exists, so
// the map (docs/architecture.md, the decisions, the comments that point at each other) cannot
// drift from the code again.
//
// What is read: the comments of every source file under src, test, bench, scripts and e2e (found
// by the TypeScript parser, so strings and regular expressions are never taken for comments), and
// the whole text of every Markdown file. What counts as a file name: a token ending in .ts, .tsx,
// .js, .mjs, .cjs, .json, .md, .yaml or .yml, not part of a URL, a glob (`*.test.ts`) or a route
// (`/widget/audio-merge.js`); and in Markdown, every link target that is not a URL, with its
// #anchor checked against the headings of the page it names.
//
// How a name resolves (the first that finds a file wins):
//   1. relative to the folder of the file that cites it (`./support/server-harness.js`, `../docs/deploy.md`);
//   2. relative to the repository's root (`src/engine/index.ts`);
//   3. as the end of exactly one path in the tree, on a folder boundary (`mp3/join.ts`,
//      `upload-store.ts`): a bare name that fits several files (`index.ts`) must say which.
// A `.js`, `.mjs` or `.cjs` name also finds the `.ts`/`.tsx` source of that name, as an ESM import
// in TypeScript does. The tree is what git tracks plus new files it does not ignore.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Names that are not files of this repository, and why they may be cited anyway. */
const EXTERNAL: { test: (name: string) => boolean; why: string }[] = [
  { test: (n) => n.startsWith('dist/'), why: 'what `npm run build` writes; not tracked' },
  { test: (n) => n === 'compose.yaml', why: 'the example docs/deploy.md shows for the reader to write' },
  { test: (n) => n === 'report.json', why: "what README's command-line example writes" },
];

const CODE_DIRS = ['src/', 'test/', 'bench/', 'scripts/', 'e2e/'];
const CODE_FILE = /\.(ts|tsx|js|mjs|cjs)$/;
const EXTENSIONS = 'ts|tsx|js|mjs|cjs|json|md|yaml|yml';
/**
 * A file name: optional ./ or ../ steps, then path characters, ending in a known extension. Not
 * preceded by a character that would make it the tail of something else (a URL or route after
 * "/", a glob after "*" or ".", a package after "@", a template after "$" or "{").
 */
const FILE_NAME = new RegExp(
  `(?<![\\w@.\\/*{}$-])(?:\\.{1,2}\\/)*[\\w-][\\w.\\/-]*\\.(?:${EXTENSIONS})\\b(?![\\w\\/*-])`,
  'g',
);
const URL = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;

/** The tracked files, and the files git does not ignore, relative to the root. */
function treeFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0').filter(Boolean))];
}

/** The comments of a source file, each with the line it starts on. */
function commentsOf(file: string, text: string): { text: string; line: number }[] {
  const kind = file.endsWith('.tsx')
    ? ts.ScriptKind.TSX
    : /\.[cm]?js$/.test(file)
      ? ts.ScriptKind.JS
      : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const seen = new Set<number>();
  const comments: { text: string; line: number }[] = [];
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      comments.push({
        text: text.slice(r.pos, r.end),
        line: source.getLineAndCharacterOfPosition(r.pos).line + 1,
      });
    }
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return comments;
}

/** The file names in a piece of text, each with its line (counted from `firstLine`). */
function namesIn(text: string, firstLine = 1): { name: string; line: number }[] {
  const found: { name: string; line: number }[] = [];
  text.split('\n').forEach((lineText, i) => {
    for (const m of lineText.replace(URL, ' ').matchAll(FILE_NAME))
      found.push({ name: m[0], line: firstLine + i });
  });
  return found;
}

/** Markdown link targets that are not URLs: `[text](target)` and `[label]: target`. */
function linksIn(text: string): { target: string; line: number }[] {
  const found: { target: string; line: number }[] = [];
  text.split('\n').forEach((lineText, i) => {
    const inline = [...lineText.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
    const reference = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(lineText)?.[1];
    for (const target of reference ? [...inline, reference] : inline) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      found.push({ target, line: i + 1 });
    }
  });
  return found;
}

/** The anchors GitHub gives a Markdown page's headings. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const n = counts.get(base) ?? 0;
    counts.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}

/** The text with fenced code blocks blanked (their lines kept, so line numbers stay right). */
function withoutFences(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

class Tree {
  private readonly files: Set<string>;
  private readonly folders = new Set<string>();

  constructor(files: string[]) {
    this.files = new Set(files);
    for (const f of files) {
      for (let dir = path.posix.dirname(f); dir !== '.'; dir = path.posix.dirname(dir)) this.folders.add(dir);
    }
  }

  /** The file `name` means when `citer` cites it, or undefined when none (or several) fit. */
  resolve(citer: string, name: string): string | undefined {
    const forms = [name];
    if (/\.[cm]?js$/.test(name)) {
      const stem = name.replace(/\.[cm]?js$/, '');
      forms.push(`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.cts`);
    }
    for (const form of forms) {
      for (const base of [path.posix.dirname(citer), '.']) {
        const candidate = path.posix.normalize(path.posix.join(base, form));
        if (this.files.has(candidate)) return candidate;
      }
    }
    if (name.startsWith('.')) return undefined;
    const endings = forms.map((form) => `/${form}`);
    const matches = [...this.files].filter((f) => endings.some((e) => `/${f}`.endsWith(e)));
    return matches.length === 1 ? matches[0] : undefined;
  }

  /** A link target relative to the citing Markdown file: a file or a folder of the tree. */
  hasPath(citer: string, target: string): string | undefined {
    const candidate = path.posix
      .normalize(path.posix.join(path.posix.dirname(citer), target))
      .replace(/\/$/, '');
    if (this.files.has(candidate) || this.folders.has(candidate) || candidate === '.') return candidate;
    return undefined;
  }
}

interface Problem {
  file: string;
  line: number;
  cited: string;
  why: string;
}

const isExternal = (name: string) => EXTERNAL.some((e) => e.test(name));

/** Every name cited in `file` (its comments, or all of its Markdown) that names no file. */
function problemsIn(tree: Tree, file: string, text: string, readPage: (p: string) => string): Problem[] {
  const problems: Problem[] = [];
  const cited = file.endsWith('.md')
    ? namesIn(text)
    : commentsOf(file, text).flatMap((c) => namesIn(c.text, c.line));
  for (const { name, line } of cited) {
    if (isExternal(name) || tree.resolve(file, name)) continue;
    problems.push({ file, line, cited: name, why: 'no such file (or several fit: say which)' });
  }
  if (!file.endsWith('.md')) return problems;
  for (const { target, line } of linksIn(withoutFences(text))) {
    const [where, anchor] = target.split('#', 2);
    const page = where ? tree.hasPath(file, decodeURI(where)) : file;
    if (!page) {
      problems.push({ file, line, cited: target, why: 'the link names no file or folder' });
    } else if (anchor && page.endsWith('.md') && !anchorsOf(readPage(page)).has(anchor)) {
      problems.push({ file, line, cited: target, why: `${page} has no heading with this anchor` });
    }
  }
  return problems;
}

const isCited = (f: string) =>
  f.endsWith('.md') || (CODE_DIRS.some((d) => f.startsWith(d)) && CODE_FILE.test(f) && !f.endsWith('.d.ts'));

describe('file names cited in comments and docs', () => {
  it('name files that exist', () => {
    const files = treeFiles();
    const tree = new Tree(files);
    const read = (f: string) => readFileSync(path.join(ROOT, f), 'utf8');
    const cited = files.filter(isCited);
    expect(cited.length).toBeGreaterThan(100);
    const problems = cited.flatMap((f) => problemsIn(tree, f, read(f), read));
    expect(problems.map((p) => `${p.file}:${p.line}: ${p.cited}: ${p.why}`)).toEqual([]);
  });

  it('report a name that does not exist, in a comment or in Markdown, and nothing in strings', () => {
    const tree = new Tree(['src/engine/index.ts', 'src/engine/mp3/join.ts', 'docs/api.md', 'docs/guide.md']);
    const code = [
      '// Joins frames (mp3/join.ts, ./index.js); see docs/api.md and src/engine/mp3/gone.ts.',
      "const s = 'src/not-a-comment.ts';",
      '/* a block comment naming old-name.ts */',
      'const re = /x.ts/; // trailing: ../engine/index.js, https://example.com/remote.js, *.test.ts',
    ].join('\n');
    expect(problemsIn(tree, 'src/engine/x.ts', code, () => '').map((p) => [p.line, p.cited])).toEqual([
      [1, 'src/engine/mp3/gone.ts'],
      [3, 'old-name.ts'],
    ]);
    const guide =
      '# Guide\n\n## The API\n\nSee [the api](api.md#the-api), `join.ts`, `gone.md`, [x](missing/) and [y](#the-api).\n';
    const pages: Record<string, string> = { 'docs/api.md': '# API\n\n## The API\n', 'docs/guide.md': guide };
    const page = (p: string) => pages[p] ?? '';
    const broken = guide.replace('[the api](api.md#the-api)', '[the api](api.md#nope)');
    expect(problemsIn(tree, 'docs/guide.md', broken, page).map((p) => [p.line, p.cited])).toEqual([
      [5, 'gone.md'],
      [5, 'api.md#nope'],
      [5, 'missing/'],
    ]);
    expect(problemsIn(tree, 'docs/guide.md', guide.replace(', `gone.md`, [x](missing/)', ''), page)).toEqual(
      [],
    );
  });

  it('ask a bare name that fits several files to say which', () => {
    const tree = new Tree(['src/engine/errors.ts', 'src/server/errors.ts', 'src/server/http/app.ts']);
    expect(tree.resolve('docs/architecture.md', 'errors.ts')).toBeUndefined();
    expect(tree.resolve('docs/architecture.md', 'server/errors.ts')).toBe('src/server/errors.ts');
    expect(tree.resolve('src/server/http/app.ts', '../errors.js')).toBe('src/server/errors.ts');
  });
});

describe('the architecture map', () => {
  // A map a reader keeps in mind: what no longer fits belongs in a decision record or the reference.
  it('stays within 20 KB', () => {
    expect(readFileSync(path.join(ROOT, 'docs/architecture.md')).length).toBeLessThanOrEqual(20_000);
  });
});

describe("the user's pages", () => {
  // The README is a user's first page: what it is, the two commands, a picture, a tour, links. The
  // how-to is docs/guide.md, the reference docs/reference/.
  it('the README stays within 15 KB and starts with the two commands', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
    const head = readme.slice(0, 400);
    expect(head).toContain('npm ci && npm start');
    expect(head).toContain('npm ci && npm test');
  });

  it('pages are cited by name, never by a section number that moves when a page does', () => {
    const cited = treeFiles()
      .filter((f) => /\.(ts|tsx|mjs|cjs|js|md)$/.test(f) && !f.startsWith('docs/decisions/'))
      .flatMap((f) => {
        const text = readFileSync(path.join(ROOT, f), 'utf8');
        return [...text.matchAll(/\b(?:api|guide|deploy)\.md,? sections? \d/g)].map((m) => `${f}: ${m[0]}`);
      });
    expect(cited).toEqual([]);
  });
});
