// The OpenAPI document of the server, collected by @fastify/swagger from the routes' schemas
// (src/server/http/routes/schemas.ts) as they are registered. Only when the config asks
// (`apiDocs`): `npm run docs:api` writes it to docs/openapi.json, and a test checks that file
// against the routes the server really has. Loaded on demand: the plugin costs ~25 ms to import.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { pluginRouteSchemas } from './routes/schemas.js';

const PACKAGE_JSON = new URL('../../../package.json', import.meta.url);

/** Register @fastify/swagger; call before any route is added, so it sees them all. */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  const { default: swagger } = await import('@fastify/swagger');
  const { version } = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string };
  await app.register(swagger, {
    // Routes that plugins add carry no schema of ours (and @fastify/static hides its own).
    transform: ({ schema, url }) => ({ schema: pluginRouteSchemas[url] ?? schema, url }),
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'audio-merge HTTP API',
        version,
        description:
          "Generated from the server's routes by `npm run docs:api`; docs/reference/http.md explains it, with the realtime protocol, " +
          'the widget element and the command line. Every POST needs the session cookie (am_session, set by GET /) and ' +
          'the X-CSRF-TOKEN header; errors are `{"error": "..."}`.',
      },
      tags: [
        { name: 'page', description: 'The host page and the session' },
        { name: 'items', description: 'Uploads and the item list' },
        { name: 'merge', description: 'Merging' },
        { name: 'files', description: 'Stored uploads and results, with Range' },
        { name: 'widget', description: 'The widget script' },
      ],
    },
  });
}

/** The document as the repository keeps it (docs/openapi.json). */
export function apiDocument(app: FastifyInstance): string {
  return `${JSON.stringify(app.swagger(), null, 2)}\n`;
}
