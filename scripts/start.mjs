// npm start: serve the built product, building it first when dist/ is missing or incomplete.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const needed = ['dist/main.js', 'dist/audio-merge-cli.cjs', 'dist/widget/audio-merge.js'];
if (!needed.every((f) => existsSync(f))) {
  console.error('audio-merge: no build found, building first');
  const r = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
await import('../dist/main.js');
