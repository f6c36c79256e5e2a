// What `npm ci` checks as it installs, checked against the lock file for every Node the project
// claims, not only the one running: no dependency refuses a Node our `engines` accepts (npm's
// EBADENGINE), and no install script goes unreviewed (npm 11's allowScripts). The lock's tree must
// also be the one npm picks without it: `npm install -g` of the packed command reads neither the lock
// nor `overrides`, so a version forced there comes back in the install as the one npm resolves; an
// override may only reach into a package the product never loads when it runs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const semver = require('semver') as {
  subset: (sub: string, sup: string) => boolean;
  satisfies: (version: string, range: string) => boolean;
  validRange: (range: string) => string | null;
};

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  engines?: { node?: string } | string[];
  hasInstallScript?: boolean;
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  engines: { node: string };
  overrides?: Record<string, unknown>;
  allowScripts: Record<string, boolean>;
};
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> };
const installed = Object.entries(lock.packages)
  .filter(([where]) => where !== '')
  .map(([where, entry]) => ({ name: where.replace(/^.*node_modules\//, ''), entry }));

/** Where Node finds `name` from the package at `where`: its own node_modules, then each parent's. */
function resolved(where: string, name: string): LockEntry | undefined {
  for (let dir = where; ; dir = dir.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
    const entry = lock.packages[`${dir ? `${dir}/` : ''}node_modules/${name}`];
    if (entry || dir === '') return entry;
  }
}

// Packages that the server and the command line never load: fastify requires light-my-request only
// inside app.inject, which only tests call.
const NEVER_LOADED_AT_RUN_TIME = ['light-my-request'];

describe('dependencies', () => {
  it('are the versions their dependents ask for, overrides only under what never runs', () => {
    expect(
      Object.keys(pkg.overrides ?? {}).filter((name) => !NEVER_LOADED_AT_RUN_TIME.includes(name)),
    ).toEqual([]);
    const outside = Object.entries(lock.packages)
      .filter(([where]) => !NEVER_LOADED_AT_RUN_TIME.includes(where.replace(/^.*node_modules\//, '')))
      .flatMap(([where, entry]) =>
        Object.entries(entry.dependencies ?? {})
          .filter(([, range]) => semver.validRange(range) !== null)
          .map(([name, range]) => ({ name, range, found: resolved(where, name) }))
          .filter(({ range, found }) => found?.version && !semver.satisfies(found.version, range))
          .map(
            ({ name, range, found }) =>
              `${where || 'audio-merge'} wants ${name}@${range}, gets ${found?.version}`,
          ),
      );
    expect(outside).toEqual([]);
  });

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
