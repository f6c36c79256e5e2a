// docs/openapi.json is the integrators' reference: it must list every route the server registers
// and be exactly what `npm run docs:api` writes from the routes today. The routes are seen through
// Fastify's own onRoute hook on the real app, independently of @fastify/swagger.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiDocument } from '../src/server/http/api-docs.js';
import { startTestApp, type TestApp } from './support/server-harness.js';

const registered = vi.hoisted(() => [] as { method: string | string[]; url: string }[]);

vi.mock('fastify', async (importOriginal) => {
  const real = await importOriginal<typeof import('fastify')>();
  const withRouteLog = ((opts?: object) => {
    const app = real.default(opts);
    app.addHook('onRoute', (route: RouteOptions) => {
      registered.push({ method: route.method, url: route.url });
    });
    return app;
  }) as unknown as typeof real.default;
  return { ...real, default: withRouteLog, fastify: withRouteLog };
});

const DOC = path.resolve(import.meta.dirname, '..', 'docs', 'openapi.json');
const GUIDE = path.resolve(import.meta.dirname, '..', 'docs', 'reference', 'http.md');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Fastify's /upload/:sid/:file and /widget/* as OpenAPI writes them. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*/g, '{*}');

/** "GET /path" for every route, less the HEAD twin Fastify adds to each GET by itself. */
function serverRoutes(): string[] {
  const out = new Set<string>();
  const gets = new Set(registered.filter((r) => r.method === 'GET').map((r) => r.url));
  for (const { method, url } of registered) {
    if (method === 'HEAD' && gets.has(url)) continue;
    for (const m of [method].flat()) out.add(`${m.toUpperCase()} ${openApiPath(url)}`);
  }
  return [...out].sort();
}

function documentedRoutes(doc: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.entries(doc.paths)
    .flatMap(([p, ops]) =>
      Object.keys(ops)
        .filter((k) => METHODS.includes(k))
        .map((m) => `${m.toUpperCase()} ${p}`),
    )
    .sort();
}

let t: TestApp;
let onDisk: string;

beforeAll(async () => {
  t = await startTestApp({ apiDocs: true });
  onDisk = await readFile(DOC, 'utf8');
});
afterAll(async () => {
  await t?.dispose();
});

describe('docs/openapi.json', () => {
  it('lists every route the server registers, and no other', () => {
    const routes = serverRoutes();
    expect(routes).toContain('POST /app/merge/mergemp3');
    expect(routes).toContain('GET /upload/{sid}/{file}');
    expect(documentedRoutes(JSON.parse(onDisk))).toEqual(routes);
  });

  it('is what `npm run docs:api` writes from the routes as they are (run it after changing a route)', () => {
    expect(onDisk).toBe(apiDocument(t.app));
  });

  it("is explained in docs/reference/http.md: its route table names every route (a path's parameters may be spelled out)", async () => {
    const guide = await readFile(GUIDE, 'utf8');
    const escape = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    for (const route of documentedRoutes(JSON.parse(onDisk))) {
      const [method, p] = route.split(' ');
      const pattern = p
        .split(/\{[^}]+\}/)
        .map(escape)
        .join('[^`\\s|]+');
      expect(guide, route).toMatch(new RegExp(`\\| (?:[A-Z]+, )*${method}(?:, [A-Z]+)* \`${pattern}\``));
    }
  });

  it('documents each operation: a summary, and the answers it gives', () => {
    const doc = JSON.parse(onDisk) as {
      paths: Record<string, Record<string, { summary?: string; responses?: object }>>;
    };
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.summary, `${method} ${p}`).toBeTruthy();
        expect(Object.keys(op.responses ?? {}), `${method} ${p}`).toContain('200');
      }
    }
  });
});
