// A browser session against a server in another process, over real HTTP: the host page's cookie
// and CSRF token, JSON posts and multipart uploads (the in-process tests use app.inject instead).
import { multipartBody, sessionFromPage, type Part, type TestSession } from './server-harness.js';

export interface HttpAnswer {
  status: number;
  text: string;
  json<T = unknown>(): T;
}

const answer = async (res: Response): Promise<HttpAnswer> => {
  const text = await res.text();
  return { status: res.status, text, json: <T>() => JSON.parse(text) as T };
};

export async function openHttpSession(base: string): Promise<TestSession> {
  const res = await fetch(`${base}/`);
  if (res.status !== 200) throw new Error(`GET / answered ${res.status}`);
  return sessionFromPage(res.headers.getSetCookie().join('; '), await res.text());
}

export async function httpPost(
  base: string,
  session: TestSession,
  url: string,
  body: unknown,
): Promise<HttpAnswer> {
  return answer(
    await fetch(`${base}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-csrf-token': session.csrf },
      body: JSON.stringify(body),
    }),
  );
}

export async function httpUpload(
  base: string,
  session: TestSession,
  files: Array<{ filename: string; content: Buffer }>,
): Promise<HttpAnswer> {
  const parts: Part[] = [
    { name: 'appid', value: session.appid },
    ...files.map((f) => ({ name: 'files', ...f })),
  ];
  const { body, contentType } = multipartBody(parts);
  return answer(
    await fetch(`${base}/app/merge/upload`, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        cookie: session.cookie,
        'x-csrf-token': session.csrf,
        accept: 'application/json',
      },
      body: new Uint8Array(body),
    }),
  );
}

/** GET with the session's cookie; the body as bytes. */
export async function httpGetBytes(
  base: string,
  session: TestSession | null,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const res = await fetch(`${base}${url}`, {
    headers: { ...headers, ...(session ? { cookie: session.cookie } : {}) },
  });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
