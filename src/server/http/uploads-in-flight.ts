// Uploads being received right now (multipart posts and tus chunks), so a shutdown can stop waiting
// for a client that trickles its bytes: after the grace their connections are cut, each handler
// runs its own clean-up (temporary files removed), and only then does the server finish closing.
import type { FastifyInstance, RouteOptions } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route receives upload bodies: tracked for a bounded shutdown. */
    upload?: boolean;
  }
}

export interface UploadsInFlight {
  readonly size: number;
  /** Cut every upload's connection (the handlers then fail and clean up). */
  cutAll(): void;
  /** Resolves when no upload handler is running. */
  drained(): Promise<void>;
}

/** Wrap the handlers of routes marked `config.upload`; call before those routes are registered. */
export function trackUploads(app: FastifyInstance): UploadsInFlight {
  const running = new Map<Promise<unknown>, { destroy(): void }>();
  let waiters: Array<() => void> = [];

  const settle = (p: Promise<unknown>) => {
    running.delete(p);
    if (running.size === 0) {
      for (const w of waiters) w();
      waiters = [];
    }
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.config?.upload) return;
    const handler = route.handler;
    route.handler = function tracked(request, reply) {
      const p = Promise.resolve().then(() => handler.call(this, request, reply));
      running.set(p, request.raw.socket ?? request.raw);
      p.then(
        () => settle(p),
        () => settle(p),
      );
      return p;
    };
  });

  return {
    get size() {
      return running.size;
    },
    cutAll() {
      for (const socket of running.values()) socket.destroy();
    },
    drained() {
      return running.size === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
    },
  };
}
