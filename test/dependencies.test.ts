// What `npm ci` checks as it installs, checked against the lock file for every Node the project
// claims, not only the one running: no dependency refuses a Node our `engines` accepts (npm's
// EBADENGINE), and no install script goes unreviewed (npm 11's allowScripts).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const semver = require('semver') as {
  subset: (sub: string, sup: string) => boolean;
  validRange: (range: string) => string | null;
};

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  engines: { node: string };
  allowScripts: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> };
const installed = Object.entries(lock.packages)
  .filter(([where]) => where !== '')
  .map(([where, entry]) => ({ name: where.replace(/^.*node_modules\//, ''), entry }));

describe('dependencies', () => {
  it('all run on every Node that engines accepts', () => {
    const ours = pkg.engines.node;
    expect(semver.validRange(ours)).not.toBeNull();
    const refusing = installed
      .filter(({ entry }) => !Array.isArray(entry.engines) && entry.engines?.node)
      .filter(({ entry }) => !semver.subset(ours, (entry.engines as { node: string }).node))
      .map(({ name, entry }) => `${name}@${entry.version} wants ${(entry.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });

  it('have each install script allowed or denied in allowScripts', () => {
    const unreviewed = installed
      .filter(({ entry }) => entry.hasInstallScript)
      .map(({ name }) => name)
      .filter((name) => !(name in pkg.allowScripts));
    expect(unreviewed).toEqual([]);
  });
});
