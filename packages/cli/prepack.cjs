// Before `npm pack` here: the repository's command-line bundle, built fresh, copied in. The
// bundle holds the engine whole; the package needs nothing else (ffmpeg is the system's).
'use strict';
const { execFileSync } = require('node:child_process');
const { copyFileSync, mkdirSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build:cli', '--silent'], {
  cwd: root,
  stdio: 'inherit',
});
mkdirSync(path.join(__dirname, 'dist'), { recursive: true });
copyFileSync(
  path.join(root, 'dist', 'audio-merge-cli.cjs'),
  path.join(__dirname, 'dist', 'audio-merge-cli.cjs'),
);
