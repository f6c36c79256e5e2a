// npm run docs:api: build the real app (temporary DATA_DIR, no realtime, no listening) and write
// the OpenAPI document its routes describe to docs/openapi.json. test/api-docs.test.ts fails when
// the file and the routes part ways.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { apiDocument } from '../src/server/http/api-docs.js';
import { createApp } from '../src/server/http/app.js';

const OUT = path.resolve(import.meta.dirname, '..', 'docs', 'openapi.json');

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'audio-merge-api-docs-'));
try {
  const built = await createApp({
    dataDir,
    realtime: false,
    apiDocs: true,
    logLevel: 'silent',
    sweepIntervalMs: 0,
  });
  try {
    await writeFile(OUT, apiDocument(built.app));
  } finally {
    await built.close();
  }
  console.log(`wrote ${path.relative(process.cwd(), OUT)}`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
