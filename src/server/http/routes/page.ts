// GET / : the host page. Starts a session when the request has none (or an unknown one).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppConfig } from '../../config.js';
import type { Flash } from '../flash.js';
import { ERRORS } from '../errors.js';
import { renderHostPage, renderNoticePage } from '../host-page.js';
import { isDiskFull } from '../../errors.js';
import { startSession } from '../session.js';
import { pickFromAcceptLanguage } from '../../../shared/locales.js';
import { documented, hostPageSchema } from './schemas.js';
import type { Clock } from '../../../shared/clock.js';
import type { Store } from '../../data/store.js';

export interface PageRouteDeps {
  store: Store;
  config: AppConfig;
  /** The port the realtime server really listens on (config may say 0 in tests); 0 when off. */
  socketPort: () => number;
  flash: Flash;
  clock: Clock;
}

export async function pageRoutes(
  app: FastifyInstance,
  { store, config, socketPort, flash, clock }: PageRouteDeps,
): Promise<void> {
  // Each page view without a session stores one: limit those per address, so a flood of cookieless
  // requests cannot grow the database without bound (a browser with its session is never limited).
  const rateLimit = {
    max: config.sessionRateLimit,
    timeWindow: '1 minute',
    keyGenerator: (request: FastifyRequest) => request.ip,
    allowList: (request: FastifyRequest) => request.amSession !== null,
  };
  app.get('/', { ...documented(hostPageSchema), config: { rateLimit } }, async (request, reply) => {
    let session = request.amSession;
    try {
      session ??= await startSession(store, reply, clock.now(), config.retentionHours);
    } catch (err) {
      // A new session is a database row; on a full disk say so in a page, not a bare 500.
      if (!isDiskFull(err)) throw err;
      request.log.warn({ err }, 'no new session: the disk is full');
      return reply
        .status(ERRORS['disk-full'].status)
        .header('cache-control', 'no-store')
        .header('retry-after', '60')
        .type('text/html; charset=utf-8')
        .send(renderNoticePage(`${ERRORS['disk-full'].message}; please try again later.`));
    }
    // The page, and the widget in it, in the browser's language among the six.
    const locale = pickFromAcceptLanguage(request.headers['accept-language']);
    const html = renderHostPage({
      csrfToken: session.csrfToken,
      sid: session.sid,
      appid: config.appId,
      socketPort: socketPort() || config.socketPort,
      maxFileMb: Number((config.maxFileBytes / (1024 * 1024)).toFixed(2)),
      results: await store.listResults(session.sid),
      notices: flash.take(session.sid),
      locale,
    });
    return reply
      .header('cache-control', 'no-store')
      .header('vary', 'Accept-Language')
      .header('content-language', locale)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .header('content-security-policy', "frame-ancestors 'self'")
      .type('text/html; charset=utf-8')
      .send(html);
  });
}
