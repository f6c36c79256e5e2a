// Replays the Dockerfile without Docker, so it cannot drift from what the build needs: each stage
// gets a scratch folder standing for its WORKDIR; COPY copies from the repository (or from an
// earlier stage's folder), RUN runs there with the stage's ENV, and the last stage's CMD is
// started and must serve the page. RUN steps that install system packages (apt-get) are the
// image's, not the repository's, and are skipped: the replay uses this machine's Node and ffmpeg.
// Minutes long (npm ci, the build), so CI runs it (.ci/run), not `npm test`.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cmdArgs, copyArgs, envPairs, readDockerfile } from './dockerfile.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'audio-merge-docker-'));

function fail(message) {
  console.error(`replay-dockerfile: ${message}`);
  process.exit(1);
}

/** .dockerignore: path prefixes, and `*.ext` suffixes. */
function ignoredBy(file) {
  const rules = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
    : [];
  for (const r of rules)
    if (/[*?[]/.test(r.replace(/^\*\./, '')))
      fail(`.dockerignore rule ${r} is not understood here; use a path or *.ext`);
  return (rel) =>
    rules.some((r) => (r.startsWith('*.') ? rel.endsWith(r.slice(1)) : rel === r || rel.startsWith(`${r}/`)));
}
const ignored = ignoredBy(path.join(root, '.dockerignore'));

/** A stage's folder and the image path its WORKDIR stands for. */
const stages = new Map();

function local(stage, imagePath) {
  const abs = path.posix.resolve(stage.workdir ?? '/', imagePath);
  if (!stage.workdir || !(abs === stage.workdir || abs.startsWith(`${stage.workdir}/`)))
    fail(`${imagePath} is outside the WORKDIR of stage ${stage.name}; the replay maps only the WORKDIR`);
  return path.join(stage.dir, path.posix.relative(stage.workdir, abs));
}

function copy(stage, args) {
  const { from, sources, dest } = copyArgs(args);
  const source = from ? stages.get(from) : undefined;
  if (from && !source) fail(`COPY --from=${from}: no such stage before this one`);
  const target = local(stage, dest);
  const intoFolder = dest.endsWith('/') || sources.length > 1;
  for (const s of sources) {
    const src = source ? local(source, s) : path.join(root, s);
    const rel = path.relative(root, src);
    if (!source && (rel.startsWith('..') || ignored(rel))) fail(`COPY ${s}: not in the build context`);
    if (!existsSync(src))
      fail(`COPY ${s}: no such file${source ? ` in stage ${from}` : ' in the repository'}`);
    const to = statSync(src).isDirectory() || !intoFolder ? target : path.join(target, path.basename(src));
    mkdirSync(path.dirname(to), { recursive: true });
    cpSync(src, to, {
      recursive: true,
      filter: (f) => source !== undefined || !ignored(path.relative(root, f)),
    });
  }
}

function runStep(stage, command) {
  if (/^apt-get\b/.test(command)) {
    console.log(`replay-dockerfile: [${stage.name}] skipped (system packages): ${command}`);
    return;
  }
  console.log(`replay-dockerfile: [${stage.name}] RUN ${command}`);
  const r = spawnSync('sh', ['-c', command], {
    cwd: stage.dir,
    stdio: 'inherit',
    // The machine's npm cache serves what it holds; the registry the rest.
    env: { ...process.env, ...stage.env, npm_config_prefer_offline: 'true' },
  });
  if (r.status !== 0) fail(`[${stage.name}] RUN ${command} exited ${r.status}`);
}

async function serve(stage) {
  const dataDir = path.join(scratch, 'data');
  mkdirSync(dataDir);
  if (stage.env.DATA_DIR && !stage.volumes.includes(stage.env.DATA_DIR))
    fail(`DATA_DIR ${stage.env.DATA_DIR} is not a VOLUME: the files would live in the container`);
  const [cmd, ...args] = stage.cmd;
  const child = spawn(cmd === 'node' ? process.execPath : cmd, args, {
    cwd: stage.dir,
    env: { ...process.env, ...stage.env, HOST: '127.0.0.1', PORT: '0', SOCKET_PORT: '0', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address within 60 s:\n${out}`)), 60_000);
      child.stdout.on('data', () => {
        const m = /audio-merge: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.on('exit', () => reject(new Error(`CMD exited early:\n${out}`)));
    });
    const page = await fetch(url);
    if (page.status !== 200 || !(await page.text()).includes('id="audio-merge-tool"'))
      fail(`GET ${url} answered ${page.status} without the widget element`);
    const widget = await fetch(new URL('/widget/audio-merge.js', url));
    if (widget.status !== 200) fail(`GET /widget/audio-merge.js answered ${widget.status}`);
    child.kill('SIGTERM');
    if ((await exited) !== 0) fail(`CMD did not exit 0 on SIGTERM:\n${out}`);
    console.log(`replay-dockerfile: CMD ${stage.cmd.join(' ')} served ${url} and stopped on SIGTERM`);
  } catch (err) {
    fail(err.message);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

try {
  const parsed = readDockerfile(path.join(root, 'Dockerfile'));
  let last;
  for (const [i, s] of parsed.entries()) {
    const stage = { name: s.name ?? `stage${i}`, dir: path.join(scratch, `stage${i}`), env: {}, volumes: [] };
    mkdirSync(stage.dir);
    for (const step of s.steps) {
      if (step.op === 'WORKDIR') {
        if (stage.workdir) fail(`stage ${stage.name}: one WORKDIR per stage is replayed`);
        stage.workdir = step.args;
      } else if (step.op === 'COPY') copy(stage, step.args);
      else if (step.op === 'RUN') runStep(stage, step.args);
      else if (step.op === 'ENV') Object.assign(stage.env, envPairs(step.args));
      else if (step.op === 'VOLUME') stage.volumes.push(...step.args.split(/\s+/));
      else if (step.op === 'CMD') stage.cmd = cmdArgs(step.args);
    }
    stages.set(stage.name, stage);
    last = stage;
  }
  if (!last?.cmd) fail('the last stage has no CMD');
  await serve(last);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
