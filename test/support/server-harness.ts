// Builds the real app on a temporary DATA_DIR and drives it like a browser would: open the page,
// keep its cookie and CSRF token, upload files as multipart, post JSON. Shared by server tests.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { createApp, type App, type AppDeps } from '../../src/server/http/app.js';
import type { AppConfig } from '../../src/server/config.js';
import { tempDir } from './audio-fixtures.js';
import { TEST_ORIGIN } from './test-origin.js';

export interface TestApp extends App {
  dataDir: string;
  /** Listen on a free port at 127.0.0.1, for clients that need a real socket; gives the base URL. */
  listenLocally(): Promise<string>;
  /** close() the app and delete its DATA_DIR. */
  dispose(): Promise<void>;
}

/** The real app on a fresh temp DATA_DIR; realtime off, silent logs, unless overridden. */
export async function startTestApp(config: Partial<AppConfig> = {}, deps: AppDeps = {}): Promise<TestApp> {
  const tmp = config.dataDir ? undefined : await tempDir('audio-merge-server-');
  const dataDir = config.dataDir ?? (tmp as { dir: string }).dir;
  const built = await createApp(
    {
      port: 0,
      socketPort: 0,
      realtime: false,
      logLevel: 'silent',
      sweepIntervalMs: 0,
      mergeConcurrency: 1,
      publicOrigins: [TEST_ORIGIN],
      ...config,
      dataDir,
    },
    deps,
  );
  return {
    ...built,
    dataDir,
    async listenLocally() {
      await built.app.listen({ host: '127.0.0.1', port: 0 });
      return `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
    },
    async dispose() {
      await built.close();
      await tmp?.cleanup();
    },
  };
}

export interface TestSession {
  /** Value for a Cookie header: "am_session=..." */
  cookie: string;
  /** The raw cookie secret. */
  secret: string;
  setCookie: string;
  csrf: string;
  sid: string;
  appid: string;
  html: string;
}

/** GET / like a first visit and keep what a browser would keep. */
export async function openSession(app: FastifyInstance): Promise<TestSession> {
  const res = await app.inject({ method: 'GET', url: '/' });
  if (res.statusCode !== 200) throw new Error(`GET / answered ${res.statusCode}`);
  return sessionFromPage(String(res.headers['set-cookie'] ?? ''), res.body);
}

/** What a browser keeps from the host page: its cookie, CSRF token, sid and appid. */
export function sessionFromPage(setCookie: string, html: string): TestSession {
  const secret = /am_session=([^;]+)/.exec(setCookie)?.[1];
  const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(html)?.[1];
  const sid = /id="audio-merge-tool"[^>]*data-sid="([^"]+)"/.exec(html)?.[1];
  const appid = /id="audio-merge-tool"[^>]*data-appid="([^"]+)"/.exec(html)?.[1];
  if (!secret || !csrf || !sid || !appid)
    throw new Error('The page lacks the cookie, csrf meta or widget element');
  return { cookie: `am_session=${secret}`, secret, setCookie, csrf, sid, appid, html };
}

export type Part =
  { name: string; value: string } | { name: string; filename: string; content: Buffer; contentType?: string };

/** A multipart/form-data body, built by hand so tests control every byte and the part order. */
export function multipartBody(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----audio-merge-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`,
        ),
      );
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.content,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export interface UploadFile {
  /** Read from this path... */
  path?: string;
  /** ...or send these bytes. */
  content?: Buffer;
  /** The client's file name; defaults to the path's base name. */
  filename?: string;
}

export interface UploadOptions {
  appid?: string;
  /** Header token; null sends none. Defaults to the session's. */
  csrf?: string | null;
  /** Extra fields placed before the files (e.g. `_csrf`). */
  fields?: Record<string, string>;
  accept?: string;
}

/** POST /app/merge/upload with these files as parts named `files`. */
export async function upload(
  app: FastifyInstance,
  session: TestSession,
  files: UploadFile[],
  opts: UploadOptions = {},
): Promise<LightMyRequestResponse> {
  const parts: Part[] = [{ name: 'appid', value: opts.appid ?? session.appid }];
  for (const [name, value] of Object.entries(opts.fields ?? {})) parts.push({ name, value });
  for (const f of files) {
    const content = f.content ?? (await readFile(f.path as string));
    parts.push({ name: 'files', filename: f.filename ?? path.basename(f.path as string), content });
  }
  const { body, contentType } = multipartBody(parts);
  const csrf = opts.csrf === undefined ? session.csrf : opts.csrf;
  return app.inject({
    method: 'POST',
    url: '/app/merge/upload',
    headers: {
      cookie: session.cookie,
      'content-type': contentType,
      accept: opts.accept ?? 'application/json',
      ...(csrf === null ? {} : { 'x-csrf-token': csrf }),
    },
    payload: body,
  });
}

export interface PostOptions {
  csrf?: string | null;
  cookie?: string | null;
}

/** POST a JSON body with the session's cookie and CSRF header (override or drop either). */
export async function postJson(
  app: FastifyInstance,
  session: TestSession | null,
  url: string,
  body: unknown,
  opts: PostOptions = {},
): Promise<LightMyRequestResponse> {
  const csrf = opts.csrf === undefined ? session?.csrf : opts.csrf;
  const cookie = opts.cookie === undefined ? session?.cookie : opts.cookie;
  return app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      ...(cookie ? { cookie } : {}),
      ...(csrf ? { 'x-csrf-token': csrf } : {}),
    },
    payload: JSON.stringify(body),
  });
}

/** An item as getDataJson lists it. */
export interface ListedItem {
  id: string;
  sid: string;
  newfilename: string;
  format: string;
  filename: string;
  duration: number;
  size: number;
  channels: number;
  start: number | null;
  end: number | null;
  chapterTitle: string | null;
  defaultChapterTitle: string;
  chapters?: number;
}

/** getDataJson for the session's appid, parsed. */
export async function listItems(
  app: FastifyInstance,
  session: TestSession,
  appid = session.appid,
): Promise<ListedItem[]> {
  const res = await postJson(app, session, '/app/merge/getDataJson', { appid });
  if (res.statusCode !== 200) throw new Error(`getDataJson answered ${res.statusCode}: ${res.body}`);
  return JSON.parse(res.body) as ListedItem[];
}

/** A new session on `app` with these files uploaded (answered 200), and its items. */
export async function sessionHolding(
  app: FastifyInstance,
  paths: string[],
): Promise<{ s: TestSession; items: ListedItem[] }> {
  const s = await openSession(app);
  const res = await upload(
    app,
    s,
    paths.map((p) => ({ path: p })),
  );
  expect(res.statusCode, res.body).toBe(200);
  return { s, items: await listItems(app, s) };
}
