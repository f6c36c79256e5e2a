// tus 1.0 requests by hand against a listening server, so tests control every byte: create, ask
// the offset, send a range of a file (optionally cut off part-way), terminate.
import http from 'node:http';
import { createReadStream } from 'node:fs';
import type { TestSession } from './server-harness.js';

export const TUS_URL = '/app/merge/tus';

export interface TusAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

function request(
  base: string,
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: (req: http.ClientRequest) => void,
): Promise<TusAnswer> {
  return new Promise((resolve, reject) => {
    // A fresh connection each time: a refused request may leave its announced body unsent.
    const req = http.request(
      new URL(url, base),
      { method, agent: false, headers: { 'tus-resumable': '1.0.0', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    if (body) body(req);
    else req.end();
  });
}

export function tusClient(base: string, session: Pick<TestSession, 'cookie' | 'csrf'>) {
  const auth = { cookie: session.cookie, 'x-csrf-token': session.csrf };
  return {
    /** POST: a new upload of `length` bytes; resolves with the answer (Location on 201). */
    create(length: number, meta: Record<string, string>, headers: Record<string, string> = {}) {
      const metadata = Object.entries(meta)
        .map(([k, v]) => `${k} ${b64(v)}`)
        .join(',');
      return request(base, 'POST', TUS_URL, {
        ...auth,
        'upload-length': String(length),
        'upload-metadata': metadata,
        ...headers,
      });
    },
    head(location: string, headers: Record<string, string> = {}) {
      return request(base, 'HEAD', location, { ...auth, ...headers });
    },
    remove(location: string, headers: Record<string, string> = {}) {
      return request(base, 'DELETE', location, { ...auth, ...headers });
    },
    /**
     * PATCH bytes [offset, end) of `file`. With `cutAfter`, the connection is destroyed once that
     * many bytes were written (a dropped connection); resolves with the bytes handed to the socket.
     */
    patch(
      location: string,
      file: string,
      offset: number,
      end: number,
      opts: { cutAfter?: number; headers?: Record<string, string> } = {},
    ) {
      let sent = 0;
      const answer = new Promise<TusAnswer>((resolve, reject) => {
        const req = http.request(new URL(location, base), {
          method: 'PATCH',
          agent: false,
          headers: {
            'tus-resumable': '1.0.0',
            ...auth,
            'upload-offset': String(offset),
            'content-type': 'application/offset+octet-stream',
            'content-length': String(end - offset),
            ...opts.headers,
          },
        });
        req.on('response', (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        });
        req.on('error', (err) =>
          opts.cutAfter !== undefined ? resolve({ status: 0, headers: {}, body: String(err) }) : reject(err),
        );
        const source = createReadStream(file, { start: offset, end: end - 1, highWaterMark: 256 * 1024 });
        source.on('data', (chunk: Buffer | string) => {
          const c = chunk as Buffer;
          if (opts.cutAfter !== undefined && sent + c.length >= opts.cutAfter) {
            req.write(c.subarray(0, opts.cutAfter - sent));
            sent = opts.cutAfter;
            source.destroy();
            // Let the bytes leave before the line drops.
            setTimeout(() => req.destroy(), 200);
            return;
          }
          sent += c.length;
          if (!req.write(c)) {
            source.pause();
            req.once('drain', () => source.resume());
          }
        });
        source.on('end', () => req.end());
      });
      return answer.then((res) => ({ ...res, sent }));
    },
  };
}
