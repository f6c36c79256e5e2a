#!/usr/bin/env node
// Thin launcher: runs the compiled CLI, building it first on a checkout that has none.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// One bundled file: loading the engine as ~25 separate modules cost ~30 ms of every run.
const cli = path.join(root, 'dist', 'audio-merge-cli.js');
if (!existsSync(cli)) {
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) {
    process.stderr.write('audio-merge: the build failed; run npm run build to see why\n');
    process.exit(1);
  }
}
const { main } = await import(cli);
process.exitCode = await main(process.argv.slice(2));
