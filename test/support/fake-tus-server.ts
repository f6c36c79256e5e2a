// A tus 1.0 server double behind tus-js-client's HttpStack, for the widget's tests under jsdom:
// it keeps each upload's bytes and offset like the real one, and a test can hold requests, drop a
// connection part-way, answer 429 with Retry-After, or refuse a file when its last byte is in.
import type { HttpRequest, HttpResponse, HttpStack } from 'tus-js-client';

export interface FakeUpload {
  id: string;
  length: number;
  metadata: Record<string, string>;
  received: number;
}

type Answer = { status: number; headers?: Record<string, string>; body?: string };

export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  bytes: number;
}

const decodeMeta = (header = ''): Record<string, string> =>
  Object.fromEntries(
    header
      .split(',')
      .filter(Boolean)
      .map((pair) => {
        const [k, v = ''] = pair.trim().split(' ');
        return [k, atob(v)];
      }),
  );

export class FakeTusServer implements HttpStack {
  uploads = new Map<string, FakeUpload>();
  requests: SentRequest[] = [];
  /** File names in the order their last byte arrived (what becomes the items' order). */
  finished: string[] = [];
  /** Answers to give instead of the normal one, for the next requests of a method. */
  private scripted: Array<{ method: string; answer: Answer | 'drop-half' }> = [];
  /** PATCHes wait while a file's name is held. */
  private held = new Map<string, { promise: Promise<void>; release: () => void }>();
  /** What the last byte of a file gets: by default 200 with the item. */
  onFinish: (u: FakeUpload) => Answer = (u) => ({
    status: 200,
    body: JSON.stringify({ items: [{ id: u.id, filename: u.metadata.filename }], errors: [] }),
  });
  private next = 1;
  /** Stacks of pages that were closed: their requests fail like a connection that dropped. */
  private dead = new WeakSet<HttpStack>();

  /** An HttpStack for one page; kill it to play that page being closed or reloaded. */
  stack(): HttpStack {
    const stack: HttpStack = {
      getName: () => 'fake-tus-page',
      createRequest: (m, u) => this.createRequest(m, u, stack),
    };
    return stack;
  }

  kill(stack: HttpStack) {
    this.dead.add(stack);
  }

  getName() {
    return 'fake-tus';
  }

  script(method: string, answer: Answer | 'drop-half') {
    this.scripted.push({ method, answer });
  }

  hold(filename: string) {
    let release!: () => void;
    const promise = new Promise<void>((r) => (release = r));
    this.held.set(filename, { promise, release });
  }

  release(filename: string) {
    this.held.get(filename)?.release();
    this.held.delete(filename);
  }

  bytesSent(filename: string): number {
    const ids = [...this.uploads.values()]
      .filter((u) => u.metadata.filename === filename)
      .map((u) => `/${u.id}`);
    return this.requests
      .filter((r) => r.method === 'PATCH' && ids.some((id) => r.url.endsWith(id)))
      .reduce((n, r) => n + r.bytes, 0);
  }

  createRequest(method: string, url: string, from: HttpStack = this): HttpRequest {
    const headers: Record<string, string> = {};
    let progress: (sent: number) => void = () => {};
    return {
      getMethod: () => method,
      getURL: () => url,
      setHeader: (k, v) => void (headers[k.toLowerCase()] = v),
      getHeader: (k) => headers[k.toLowerCase()],
      setProgressHandler: (h) => void (progress = h),
      send: (body?: Blob) => this.handle({ method, url, headers, body, progress, from }),
      abort: async () => {},
      getUnderlyingObject: () => null,
    };
  }

  private async handle({
    method,
    url,
    headers,
    body,
    progress,
    from,
  }: {
    method: string;
    url: string;
    headers: Record<string, string>;
    body: Blob | undefined;
    progress: (n: number) => void;
    from: HttpStack;
  }): Promise<HttpResponse> {
    await Promise.resolve();
    if (this.dead.has(from)) throw new Error('network error');
    const sent: SentRequest = { method, url, headers, bytes: 0 };
    this.requests.push(sent);
    const i = this.scripted.findIndex((s) => s.method === method);
    const scripted = i >= 0 ? this.scripted.splice(i, 1)[0].answer : undefined;
    const upload = this.uploads.get(url.split('/').pop() ?? '');

    if (scripted && scripted !== 'drop-half') return response(scripted);
    if (method === 'POST') {
      const id = `u${this.next++}`;
      this.uploads.set(id, {
        id,
        length: Number(headers['upload-length']),
        metadata: decodeMeta(headers['upload-metadata']),
        received: 0,
      });
      return response({ status: 201, headers: { Location: `/app/merge/tus/${id}` } });
    }
    if (!upload) return response({ status: 404 });
    if (method === 'HEAD')
      return response({
        status: 200,
        headers: { 'Upload-Offset': String(upload.received), 'Upload-Length': String(upload.length) },
      });
    if (method !== 'PATCH') return response({ status: 204 });

    if (Number(headers['upload-offset']) !== upload.received) return response({ status: 409 });
    await this.held.get(upload.metadata.filename)?.promise;
    const size = body?.size ?? 0;
    if (scripted === 'drop-half' || this.dead.has(from)) {
      // Half the bytes arrive, then the line drops: no answer at all.
      const half = Math.floor(size / 2);
      upload.received += half;
      sent.bytes = half;
      progress(half);
      throw new Error('network error');
    }
    progress(size);
    upload.received += size;
    sent.bytes = size;
    if (upload.received < upload.length)
      return response({ status: 204, headers: { 'Upload-Offset': String(upload.received) } });
    this.finished.push(upload.metadata.filename);
    const answer = this.onFinish(upload);
    return response({ ...answer, headers: { 'Upload-Offset': String(upload.received), ...answer.headers } });
  }
}

function response({ status, headers = {}, body = '' }: Answer): HttpResponse {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    getStatus: () => status,
    getHeader: (k) => lower[k.toLowerCase()],
    getBody: () => body,
    getUnderlyingObject: () => null,
  };
}
