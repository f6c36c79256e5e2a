// The output file's side of a merge: a hidden partial file beside the target, claimed before any
// work, and file-system errors while writing told as the output's, not an input's.
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { OutputError } from '../errors.js';
import { fsReason, isDiskFull } from '../io/fs-reason.js';
import { RUN_TAG } from '../io/leftovers.js';

/** A file-system error while writing, as an OutputError: "what: why", coded disk-full when it is. */
export function outputError(what: string, err: unknown): OutputError {
  return new OutputError(`${what}: ${fsReason(err)}`, isDiskFull(err) ? 'disk-full' : 'output-unwritable');
}

/** A hidden name beside the target (same file system, so the final rename is atomic). */
export function partialPath(target: string): string {
  const base = path.basename(target);
  // Unique enough with the exclusive create below; not a secret, so node:crypto (~10 ms to load)
  // is not needed here.
  // It carries the run's pid and start (RUN_TAG), so a later run can tell a killed run's leftover.
  const random = `${RUN_TAG}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  // File names are limited to 255 bytes; a long target name is not repeated.
  const name =
    Buffer.byteLength(base) <= 200 ? `.${base}.${random}.partial` : `.audio-merge.${random}.partial`;
  return path.join(path.dirname(target), name);
}

/** Refuse a target that cannot be written, before any work; create the partial file. */
export async function claimOutput(output: string, target: string, partial: string): Promise<void> {
  const outDir = await stat(path.dirname(target)).catch(() => undefined);
  if (!outDir?.isDirectory())
    throw new OutputError(`cannot write ${output}: no folder ${path.dirname(target)}`);
  if ((await stat(target).catch(() => undefined))?.isDirectory())
    throw new OutputError(`cannot write ${output}: it is a folder`);
  if (/[\\/]$/.test(output)) throw new OutputError(`cannot write ${output}: that names a folder, not a file`);
  await writeFile(partial, '', { flag: 'wx' }).catch((err: unknown) => {
    throw outputError(`cannot write ${output}`, err);
  });
}
