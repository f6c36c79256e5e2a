// Reads the repository's Dockerfile into stages of instructions, for the replay of its build
// (scripts/replay-dockerfile.mjs) and the test that checks it against the repository. Only the
// instructions this Dockerfile uses are understood; any other is an error, so a new kind of step
// cannot slip past the replay unreplayed.
import { readFileSync } from 'node:fs';

const KNOWN = new Set(['FROM', 'WORKDIR', 'COPY', 'RUN', 'ENV', 'USER', 'VOLUME', 'EXPOSE', 'CMD']);

/**
 * @typedef {{ op: string, args: string, line: number }} Instruction
 * @typedef {{ name: string | undefined, image: string, steps: Instruction[] }} Stage
 */

/** Logical lines: comments and blank lines dropped, backslash continuations joined. */
function logicalLines(text) {
  const out = [];
  let pending = '';
  let start = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) return;
    if (!pending) start = i + 1;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      return;
    }
    out.push({ text: (pending + line).trim(), line: start });
    pending = '';
  });
  if (pending) throw new Error('Dockerfile ends inside a continued line');
  return out;
}

/** @returns {Stage[]} */
export function parseDockerfile(text) {
  const stages = [];
  for (const { text: l, line } of logicalLines(text)) {
    const m = /^([A-Za-z]+)\s+(.*)$/.exec(l);
    if (!m) throw new Error(`Dockerfile line ${line}: cannot read "${l}"`);
    const op = m[1].toUpperCase();
    if (!KNOWN.has(op))
      throw new Error(`Dockerfile line ${line}: ${op} is not replayed; teach scripts/dockerfile.mjs`);
    if (op === 'FROM') {
      const from = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(m[2]);
      if (!from) throw new Error(`Dockerfile line ${line}: cannot read FROM ${m[2]}`);
      stages.push({ image: from[1], name: from[2], steps: [] });
      continue;
    }
    if (stages.length === 0) throw new Error(`Dockerfile line ${line}: ${op} before FROM`);
    stages.at(-1).steps.push({ op, args: m[2], line });
  }
  return stages;
}

export function readDockerfile(file) {
  return parseDockerfile(readFileSync(file, 'utf8'));
}

/** COPY's arguments: the stage it copies from (undefined: the build context), sources, destination. */
export function copyArgs(args) {
  const words = args.split(/\s+/);
  let from;
  while (words[0]?.startsWith('--')) {
    const flag = words.shift();
    const m = /^--from=(\S+)$/.exec(flag);
    if (!m) throw new Error(`COPY ${flag} is not replayed`);
    from = m[1];
  }
  if (words.length < 2) throw new Error(`COPY ${args}: needs a source and a destination`);
  return { from, sources: words.slice(0, -1), dest: words.at(-1) };
}

/** ENV's pairs, in the KEY=VALUE form (values without spaces or with double quotes). */
export function envPairs(args) {
  const pairs = {};
  for (const m of args.matchAll(/(\w+)=("([^"]*)"|\S*)/g)) pairs[m[1]] = m[3] ?? m[2];
  return pairs;
}

/** CMD in exec form. */
export function cmdArgs(args) {
  const parsed = JSON.parse(args);
  if (!Array.isArray(parsed) || parsed.length === 0) throw new Error(`CMD ${args}: use the exec form`);
  return parsed;
}
