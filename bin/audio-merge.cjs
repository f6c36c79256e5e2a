#!/usr/bin/env node
// Thin launcher: runs the compiled CLI, building it first on a checkout that has none.
// CommonJS on purpose: a CommonJS entry starts ~20 ms sooner than an ES module one (Node's ESM
// loader is not set up at all), which is a visible share of a short merge (bench/RESULTS.md).
'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
// One bundled file: loading the engine as ~25 separate modules cost ~30 ms of every run.
const cli = path.join(root, 'dist', 'audio-merge-cli.cjs');
if (!existsSync(cli)) {
  const r = require('node:child_process').spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (r.status !== 0) {
    process.stderr.write('audio-merge: the build failed; run npm run build to see why\n');
    process.exit(1);
  }
}
require(cli)
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
