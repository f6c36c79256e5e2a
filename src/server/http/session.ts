// Sessions: the cookie carries a random secret the database keeps only as a SHA-256 hash; the
// public sid (page, play paths, channels) is a separate random id; one CSRF token per session.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { fastifyCookie } from '@fastify/cookie';
import { fail } from './errors.js';
import type { Clock } from '../../shared/clock.js';
import type { SessionRow, Store } from '../data/store.js';

export const SESSION_COOKIE = 'am_session';
export const CSRF_HEADER = 'x-csrf-token';
/** Touch a session at most this often, so reads do not turn into a write per request. */
const TOUCH_EVERY_MS = 60_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The session this request's cookie names, or null (set by sessionHook). */
    amSession: SessionRow | null;
  }
}

export const randomId = (bytes: number): string => randomBytes(bytes).toString('base64url');
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** The session of a cookie secret, or undefined. Malformed secrets never reach the database. */
export async function sessionForSecret(
  store: Store,
  secret: string | undefined,
): Promise<SessionRow | undefined> {
  if (!secret || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return undefined;
  return store.sessionBySecretHash(hashSecret(secret));
}

/** For the realtime server: the sid owned by the browser whose handshake sent this Cookie header. */
export async function sidForCookieHeader(
  store: Store,
  cookieHeader: string | undefined,
): Promise<string | null> {
  if (!cookieHeader) return null;
  const cookies = fastifyCookie.parse(cookieHeader);
  return (await sessionForSecret(store, cookies[SESSION_COOKIE]))?.sid ?? null;
}

/**
 * onRequest hook: find the request's session from its cookie and mark it seen. Marking is only
 * bookkeeping for retention: a database that cannot write (a full disk) must not fail the request.
 */
export function sessionHook(store: Store, clock: Clock, log?: Pick<FastifyBaseLogger, 'warn'>) {
  return async (request: FastifyRequest): Promise<void> => {
    const session = (await sessionForSecret(store, request.cookies[SESSION_COOKIE])) ?? null;
    request.amSession = session;
    if (session) {
      const t = clock.now();
      if (t - session.lastSeenAt < TOUCH_EVERY_MS) return;
      try {
        await store.touchSession(session.sid, t);
      } catch (err) {
        log?.warn({ err, sid: session.sid }, 'could not mark the session as seen');
      }
    }
  };
}

/**
 * The session cookie, kept by the browser as long as the server keeps the session (RETENTION_HOURS
 * after it was last seen), so closing the browser does not lose a person's files.
 */
export function setSessionCookie(reply: FastifyReply, secret: string, retentionHours: number): void {
  reply.setCookie(SESSION_COOKIE, secret, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: reply.request.protocol === 'https',
    maxAge: Math.max(1, Math.round(retentionHours * 3600)),
  });
}

/** Start a session and set its cookie on the reply. */
export async function startSession(
  store: Store,
  reply: FastifyReply,
  opts: { now: number; retentionHours: number },
): Promise<SessionRow> {
  const secret = randomId(32);
  const session = await store.createSession(hashSecret(secret), randomId(16), randomId(32), opts.now);
  setSessionCookie(reply, secret, opts.retentionHours);
  return session;
}

/** The request's session, or a 403 noSession. */
export function requireSession(request: FastifyRequest): SessionRow {
  return request.amSession ?? fail('noSession');
}

export function csrfMatches(session: SessionRow, token: unknown): boolean {
  if (typeof token !== 'string' || token.length === 0) return false;
  const a = Buffer.from(token);
  const b = Buffer.from(session.csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * onRequest hook for every POST, before any body is read: a session and its CSRF token in X-CSRF-TOKEN. A multipart upload
 * without the header may carry `_csrf` as a form field instead (the no-JS form); the upload route
 * checks that field before it stores anything.
 */
export async function requireSessionAndCsrf(request: FastifyRequest): Promise<void> {
  if (request.method !== 'POST') return;
  const session = requireSession(request);
  const header = request.headers[CSRF_HEADER];
  // The body is not parsed yet here, so multipart is known by its content type.
  const multipart = /^multipart\/form-data\s*;/i.test(request.headers['content-type'] ?? '');
  if (header === undefined && request.routeOptions.config.csrfInForm && multipart) return;
  if (!csrfMatches(session, header)) fail('csrf');
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route checks `_csrf` in a multipart body itself when the header is absent. */
    csrfInForm?: boolean;
  }
}
