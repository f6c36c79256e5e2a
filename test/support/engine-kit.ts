// What the engine's own tests share: the tools as the engine takes them, and a scratch folder.
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { Tools } from '../../src/engine/types.js';
import { tempDir, tools as fixtureTools } from './audio-fixtures.js';

/** The tools with a fixed version, so no result depends on which ffmpeg build ran. */
export const tools: Tools = { ...fixtureTools, ffmpegVersion: 'test' };

/**
 * A scratch folder for the tests around the call (a file or a describe): made before them and
 * removed after. Gives a path in it by name.
 */
export function scratchFiles(prefix?: string): (name: string) => string {
  let scratch: { dir: string; cleanup: () => Promise<void> } | undefined;
  beforeAll(async () => {
    scratch = await tempDir(prefix);
  });
  afterAll(() => scratch?.cleanup());
  return (name) => {
    if (!scratch) throw new Error('the scratch folder is made in beforeAll');
    return path.join(scratch.dir, name);
  };
}
