// One fuzz case: run the built command line on a mutated input (alone or beside a clean MP3) and
// judge what happened as a person would: an exit status of 0 or 1 only, an answer within the time
// limit, one clear line when refused, nothing left behind, and an output that decodes cleanly
// unless the damaged input did not either.
import { spawn } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { cliBin } from '../support/cli-run.js';
import { decodeErrors } from '../support/audio-fixtures.js';

export type FindingKind = 'crash' | 'hang' | 'unclear-error' | 'leftover' | 'bad-output';

export interface CaseResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  findings: Array<{ kind: FindingKind; detail: string }>;
}

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  timedOut: boolean;
}

/** The CLI in its own process group, so a hang is ended with every ffmpeg it started. */
function runBounded(bin: string, args: string[], cwd: string, timeoutMs: number): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    let timedOut = false;
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr, timedOut });
    });
  });
}

export interface CaseInput {
  dir: string;
  /** Input files in order (one is the mutated one). */
  inputs: string[];
  mutated: string;
  timeoutMs: number;
  /** Whether the mutated input decodes with errors on its own (asked only when needed). */
  inputDecodesDirty: () => Promise<boolean>;
  /** The command line to run (the built one unless a test gives a stand-in). */
  bin?: string;
}

export async function runCase(c: CaseInput): Promise<CaseResult> {
  const outDir = path.join(c.dir, 'out');
  await mkdir(outDir, { recursive: true });
  const output = path.join(outDir, 'out.mp3');
  const ran = await runBounded(c.bin ?? cliBin, ['-q', '-o', output, ...c.inputs], c.dir, c.timeoutMs);
  const findings: CaseResult['findings'] = [];
  const lines = ran.stderr.split('\n').filter(Boolean);

  if (ran.timedOut) findings.push({ kind: 'hang', detail: `no answer within ${c.timeoutMs} ms` });
  else if (ran.code !== 0 && ran.code !== 1) {
    findings.push({
      kind: 'crash',
      detail: `exit ${ran.code ?? ran.signal}: ${lines.slice(0, 3).join(' | ')}`,
    });
  } else if (/^\s+at /m.test(ran.stderr)) findings.push({ kind: 'crash', detail: 'a stack trace on stderr' });
  else if (ran.code === 1 && (lines.length !== 1 || !lines[0].startsWith(`audio-merge: ${c.mutated}: `))) {
    // Only the damaged input can be refused, so the one line names it (an engine bug would not).
    findings.push({
      kind: 'unclear-error',
      detail: `stderr is not one "audio-merge: ${c.mutated}: reason" line: ${JSON.stringify(ran.stderr.slice(0, 300))}`,
    });
  }

  if (!ran.timedOut) {
    const left = (await readdir(outDir)).sort();
    const expected = ran.code === 0 ? ['out.mp3'] : [];
    if (left.join('/') !== expected.join('/'))
      findings.push({ kind: 'leftover', detail: `output folder holds ${JSON.stringify(left)}` });
    const beside = (await readdir(c.dir)).filter((n) => n.startsWith('.'));
    if (beside.length > 0)
      findings.push({ kind: 'leftover', detail: `case folder holds ${JSON.stringify(beside)}` });
  }

  if (ran.code === 0 && !ran.timedOut) {
    const errors = await decodeErrors(output).catch((err: Error) => err.message);
    if (errors !== '' && !(await c.inputDecodesDirty())) {
      findings.push({
        kind: 'bad-output',
        detail: `the output decodes with errors, the input did not: ${errors.split('\n')[0]}`,
      });
    }
  }
  return { code: ran.code, signal: ran.signal, stderr: ran.stderr, findings };
}
