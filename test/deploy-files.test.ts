// The deployment recipes in the repository root, checked against the repository: what the
// Dockerfile copies exists, the files every process keeps live on volumes, and the proxy names the
// web processes. The Dockerfile's build itself is replayed in CI (scripts/replay-dockerfile.mjs).
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
// @ts-expect-error: a plain .mjs script without types
import { copyArgs, envPairs, readDockerfile } from '../scripts/dockerfile.mjs';

interface Step {
  op: string;
  args: string;
}
interface Stage {
  name?: string;
  steps: Step[];
}
interface Service {
  build?: string;
  environment?: Record<string, string>;
  volumes?: string[];
}

const stages = readDockerfile('Dockerfile') as Stage[];
const compose = parse(readFileSync('compose.yaml', 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const last = stages.at(-1) as Stage;
const imageEnv = Object.assign(
  {},
  ...last.steps.filter((s) => s.op === 'ENV').map((s) => envPairs(s.args) as Record<string, string>),
) as Record<string, string>;

describe('Dockerfile', () => {
  it('copies only files the repository has, and installs from the lock file before copying sources', () => {
    const copies = stages.flatMap((s) => s.steps.filter((x) => x.op === 'COPY').map((x) => copyArgs(x.args)));
    const fromContext = copies.filter((c) => c.from === undefined).flatMap((c) => c.sources as string[]);
    expect(fromContext.filter((f) => !existsSync(f))).toEqual([]);
    expect(fromContext).toEqual(
      expect.arrayContaining(['package.json', 'package-lock.json', 'tsconfig.build.json']),
    );
    const build = stages[0].steps.map((s) => `${s.op} ${s.args}`);
    expect(build.findIndex((s) => s.startsWith('RUN npm ci'))).toBeLessThan(
      build.findIndex((s) => /src/.test(s)),
    );
  });

  it('keeps DATA_DIR on a volume, runs as a user, and gets a current ffmpeg from Debian', () => {
    expect(imageEnv.DATA_DIR).toBe('/data');
    expect(last.steps.filter((s) => s.op === 'VOLUME').map((s) => s.args)).toContain(imageEnv.DATA_DIR);
    expect(last.steps.some((s) => s.op === 'USER' && s.args !== 'root')).toBe(true);
    expect(last.steps.some((s) => s.op === 'RUN' && /apt-get install .*\bffmpeg\b/.test(s.args))).toBe(true);
  });
});

describe('compose.yaml', () => {
  const ours = Object.entries(compose.services).filter(([, s]) => s.build === '.');

  it('runs web and worker processes of this image', () => {
    const roles = ours.map(([, s]) => s.environment?.ROLE);
    expect(roles.filter((r) => r === 'web').length).toBeGreaterThanOrEqual(2);
    expect(roles.filter((r) => r === 'worker').length).toBeGreaterThanOrEqual(1);
  });

  it('gives every process that keeps files a volume of its own at its DATA_DIR', () => {
    const volumeAt = (s: Service, dir: string) =>
      s.volumes?.map((v) => v.split(':')).find(([, at]) => at === dir)?.[0];
    const dataVolumes = ours.map(([name, s]) => {
      const dir = s.environment?.DATA_DIR ?? imageEnv.DATA_DIR;
      const volume = volumeAt(s, dir);
      expect(volume, `${name} keeps ${dir} on a volume`).toBeDefined();
      expect(compose.volumes).toHaveProperty(volume as string);
      return volume;
    });
    // A process clears its scratch at start: no two may share one.
    expect(new Set(dataVolumes).size).toBe(dataVolumes.length);
    for (const [name, at] of [
      ['postgres', '/var/lib/postgresql/data'],
      ['redis', '/data'],
      ['minio', '/data'],
    ])
      expect(volumeAt(compose.services[name], at), `${name} keeps ${at} on a volume`).toBeDefined();
  });

  it('has the proxy send HTTP, realtime and uploads to every web process', () => {
    const proxy = compose.services.proxy.volumes?.[0].split(':')[0] as string;
    const nginx = readFileSync(proxy, 'utf8');
    for (const [name, s] of ours.filter(([, s]) => s.environment?.ROLE === 'web')) {
      expect(s.environment?.ROLE).toBe('web');
      for (const port of [3000, 6001]) expect(nginx).toContain(`server ${name}:${port}`);
    }
  });
});
