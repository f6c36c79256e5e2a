// The command as a person installs it: `npm pack`, then `npm install -g` of the tarball into a
// scratch prefix, then `audio-merge` run from a folder that has nothing of the checkout. Fails
// (exit 1) when the tarball lacks what the command needs or the installed command does not work.
// First the lean package of the command alone (packages/cli), which a person installs for it.
// Slow (an install from the registry), so CI runs it (.ci/run), not `npm test`.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const semver = createRequire(import.meta.url)('semver');
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'audio-merge-pack-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function fail(message) {
  console.error(`check-pack: ${message}`);
  process.exit(1);
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
  if (r.status !== 0) fail(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** A 16-bit mono WAV of a sine: test input made without any tool. */
function sineWav(file, seconds, frequency, rate = 44100) {
  const n = Math.round(seconds * rate);
  const data = Buffer.alloc(n * 2);
  for (let i = 0; i < n; i++)
    data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * frequency * i) / rate)), i * 2);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0);
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8);
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(rate, 24);
  head.writeUInt32LE(rate * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36);
  head.writeUInt32LE(data.length, 40);
  writeFileSync(file, Buffer.concat([head, data]));
  return n / rate;
}

/** Names of the packages under `root` (itself included) whose dependencies accept `name`@`version`. */
function dependentsOf(root, name, version) {
  const found = [];
  const visit = (dir) => {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
      const range = { ...pkg.dependencies, ...pkg.optionalDependencies }[name];
      if (range && semver.satisfies(version, range)) found.push(pkg.name);
    }
    const modules = path.join(dir, 'node_modules');
    if (!existsSync(modules)) return;
    for (const entry of readdirSync(modules)) {
      if (entry.startsWith('.')) continue;
      const at = path.join(modules, entry);
      if (entry.startsWith('@')) for (const sub of readdirSync(at)) visit(path.join(at, sub));
      else visit(at);
    }
  };
  visit(root);
  return found;
}

/** Bytes under `dir`, every file counted once. */
function bytesUnder(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) total += bytesUnder(at);
    else if (entry.isFile()) total += statSync(at).size;
  }
  return total;
}

/**
 * The lean package a person installs for the command alone (packages/cli, decision 0046): under
 * 60 MB installed, under a minute, no npm warning, a join run from another folder.
 */
function checkLean() {
  const packed = JSON.parse(
    run(npm, ['pack', '--json', '--pack-destination', scratch], {
      cwd: path.join(root, 'packages', 'cli'),
      stdio: ['ignore', 'pipe', 'inherit'],
    }).stdout,
  )[0];
  const prefix = path.join(scratch, 'lean-prefix');
  const started = Date.now();
  const install = run(
    npm,
    ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', path.join(scratch, packed.filename)],
    { cwd: scratch },
  );
  const seconds = (Date.now() - started) / 1000;
  const megabytes = bytesUnder(prefix) / 1e6;
  const warnings = `${install.stdout}\n${install.stderr}`.split('\n').filter((l) => /^npm warn/i.test(l));
  if (warnings.length > 0) fail(`npm install -g of the lean package warned:\n${warnings.join('\n')}`);
  if (megabytes > 60) fail(`the lean package installs ${megabytes.toFixed(1)} MB (at most 60)`);
  if (seconds > 60) fail(`the lean package took ${seconds.toFixed(0)} s to install (at most 60)`);
  const work = path.join(scratch, 'lean-elsewhere');
  run('mkdir', ['-p', work]);
  const env = { ...process.env, PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}` };
  sineWav(path.join(work, 'one.wav'), 1, 440);
  sineWav(path.join(work, 'two.wav'), 1, 660);
  const merged = run('audio-merge', ['-o', 'joined.m4b', 'one.wav', 'two.wav'], { cwd: work, env });
  if (!/^audio-merge: wrote joined\.m4b \(0:02, .+, 2 chapters\)$/m.test(merged.stderr))
    fail(`the lean command said:\n${merged.stderr}`);
  console.log(
    `check-pack: lean ${packed.filename} (${(packed.size / 1024).toFixed(0)} KiB) installs ${megabytes.toFixed(1)} MB in ${seconds.toFixed(1)} s, no warnings; joined two files`,
  );
}

try {
  checkLean();
  // 1. The tarball: built by prepack, holding the command and the built product, no sources.
  const packed = JSON.parse(
    run(npm, ['pack', '--json', '--pack-destination', scratch], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    }).stdout,
  )[0];
  const files = packed.files.map((f) => f.path);
  for (const needed of [
    'bin/audio-merge.cjs',
    'dist/audio-merge-cli.cjs',
    'dist/main.js',
    'scripts/start.mjs',
  ])
    if (!files.includes(needed)) fail(`the tarball lacks ${needed}`);
  const stray = files.filter((f) => /^(src|test|e2e|bench)\/|\.test\.|\.map$/.test(f));
  if (stray.length > 0)
    fail(`the tarball carries files only the checkout needs: ${stray.slice(0, 5).join(', ')}`);
  console.log(
    `check-pack: ${packed.filename}, ${files.length} files, ${(packed.size / 1024).toFixed(0)} KiB`,
  );

  // 2. Installed as a person does, into a prefix of its own (dependencies from the registry).
  const prefix = path.join(scratch, 'prefix');
  const install = run(
    npm,
    ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', path.join(scratch, packed.filename)],
    { cwd: scratch },
  );
  const engineWarnings = [...install.stderr.matchAll(/package: '([^']+)'/g)].map((m) => m[1]);
  // A global install reads neither the lock file nor `overrides`: what it resolves must suit this
  // Node, except under light-my-request, which fastify loads only for app.inject (tests).
  const installedAt = path.join(prefix, 'lib', 'node_modules', 'audio-merge');
  const refusing = engineWarnings.filter((spec) => {
    const at = spec.lastIndexOf('@');
    return dependentsOf(installedAt, spec.slice(0, at), spec.slice(at + 1)).some(
      (dependent) => dependent !== 'light-my-request',
    );
  });
  if (refusing.length > 0) fail(`npm install -g warned EBADENGINE for ${refusing.join(', ')}`);
  if (engineWarnings.length > 0)
    console.log(`check-pack: EBADENGINE only under light-my-request: ${engineWarnings.join(', ')}`);
  const bin = path.join(prefix, 'bin', 'audio-merge');
  if (!existsSync(bin)) fail(`npm install -g gave no ${bin}`);

  // 3. Run from a folder that is not the checkout, with the prefix's bin first on PATH.
  const work = path.join(scratch, 'elsewhere');
  run('mkdir', ['-p', work]);
  const env = { ...process.env, PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH}` };
  const help = run('audio-merge', ['--help'], { cwd: work, env });
  if (!/^usage: audio-merge -o OUT/.test(help.stdout)) fail(`--help printed:\n${help.stdout}`);
  const seconds = sineWav(path.join(work, 'one.wav'), 1.5, 440) + sineWav(path.join(work, 'two.wav'), 2, 660);
  const merged = run('audio-merge', ['-o', 'joined.mp3', '--json', 'one.wav', 'two.wav'], { cwd: work, env });
  const report = JSON.parse(merged.stdout);
  if (report.inputs !== 2 || report.chapters.length !== 2) fail(`the merge reported ${merged.stdout}`);
  // Each encoded run adds at most an MP3 frame of delay and one of padding (1152 samples each).
  if (Math.abs(report.durationSeconds - seconds) > (2 * 1152) / 44100)
    fail(`joined.mp3 lasts ${report.durationSeconds} s, the inputs ${seconds} s`);
  if (!statSync(path.join(work, 'joined.mp3')).size) fail('joined.mp3 is empty');
  const leftovers = readdirSync(work).filter((f) => f.startsWith('.'));
  if (leftovers.length > 0) fail(`left behind: ${leftovers.join(', ')}`);
  const version = execFileSync(process.execPath, ['--version']).toString().trim();
  console.log(
    `check-pack: npm install -g gave a working audio-merge (--help, a 2-file merge of ${report.durationSeconds.toFixed(3)} s) on Node ${version}`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
