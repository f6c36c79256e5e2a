// One real app and a folder of test audio made for it, for a file of route tests: both are made
// before the file's tests and removed after them. What the tests do to the app goes through the
// same inject helpers a person's browser would meet (upload, getDataJson, mergemp3).
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { AppConfig } from '../../src/server/config.js';
import type { JobRow, JobStatus } from '../../src/server/data/store.js';
import type { AppDeps } from '../../src/server/http/app.js';
import { makeTone, tempDir, type ToneOptions } from './audio-fixtures.js';
import {
  listItems,
  openSession,
  postJson,
  sessionHolding,
  startTestApp,
  upload,
  type ListedItem,
  type PostOptions,
  type TestApp,
  type TestSession,
  type UploadFile,
  type UploadOptions,
} from './server-harness.js';

export interface MediaAppOptions {
  /** The media folder's name starts with this. */
  prefix: string;
  /** Sine tones to make in the media folder, by name, all at once. */
  tones?: Record<string, ToneOptions>;
  /** Make any other test audio; `file` names a path in the media folder. */
  media?: (file: (name: string) => string) => Promise<unknown>;
  config?: Partial<AppConfig>;
  deps?: AppDeps;
}

export interface MediaApp {
  /** The running app (from the file's first beforeAll on). */
  readonly app: TestApp;
  /** A path in the media folder. */
  file(name: string): string;
  /** The server-harness helpers, on this app. */
  inject(opts: InjectOptions | string): Promise<LightMyRequestResponse>;
  session(): Promise<TestSession>;
  post(
    s: TestSession | null,
    url: string,
    body: unknown,
    opts?: PostOptions,
  ): Promise<LightMyRequestResponse>;
  upload(s: TestSession, files: UploadFile[], opts?: UploadOptions): Promise<LightMyRequestResponse>;
  items(s: TestSession, appid?: string): Promise<ListedItem[]>;
  /** Upload these media files to the session (answered 200) and list its items. */
  uploadAll(s: TestSession, names: string[]): Promise<ListedItem[]>;
  /** A new session holding these media files, and its items. */
  sessionWith(names: string[]): Promise<{ s: TestSession; items: ListedItem[] }>;
  /** mergemp3 of these items in this order, with `extra` fields beside them. */
  merge(s: TestSession, ids: string[], extra?: Record<string, unknown>): Promise<LightMyRequestResponse>;
  /** Every job the store holds, whatever its status. */
  allJobs(): Promise<JobRow[]>;
}

const STATUSES: JobStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

export function useMediaApp(opts: MediaAppOptions): MediaApp {
  let app: TestApp | undefined;
  let media: { dir: string; cleanup: () => Promise<void> } | undefined;
  const file = (name: string) => path.join((media as { dir: string }).dir, name);
  beforeAll(async () => {
    media = await tempDir(opts.prefix);
    await Promise.all(Object.entries(opts.tones ?? {}).map(([name, tone]) => makeTone(file(name), tone)));
    await opts.media?.(file);
    app = await startTestApp(opts.config, opts.deps);
  });
  afterAll(async () => {
    await app?.dispose();
    await media?.cleanup();
  });
  const started = () => {
    if (!app) throw new Error('the app starts in beforeAll');
    return app;
  };
  const uploadAll = async (s: TestSession, names: string[]) => {
    const res = await upload(
      started().app,
      s,
      names.map((n) => ({ path: file(n) })),
    );
    expect(res.statusCode, res.body).toBe(200);
    return listItems(started().app, s);
  };
  return {
    get app() {
      return started();
    },
    file,
    inject: (injected) => started().app.inject(injected),
    session: () => openSession(started().app),
    post: (s, url, body, postOpts) => postJson(started().app, s, url, body, postOpts),
    upload: (s, files, uploadOpts) => upload(started().app, s, files, uploadOpts),
    items: (s, appid) => listItems(started().app, s, appid),
    uploadAll,
    sessionWith: (names) => sessionHolding(started().app, names.map(file)),
    merge: (s, ids, extra = {}) =>
      postJson(started().app, s, '/app/merge/mergemp3', { items: ids.map((id) => ({ id })), ...extra }),
    allJobs: async () => (await Promise.all(STATUSES.map((st) => started().store.jobsWithStatus(st)))).flat(),
  };
}
