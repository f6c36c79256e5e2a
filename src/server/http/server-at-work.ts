// The idle timeout cuts clients that go silent; while the server itself works on a request whose
// client is waiting for it (a file being probed or stored, a merge), the silence is the server's,
// and the connection is kept. TCP keep-alive still tells a dead peer from a patient one.
import { Socket } from 'node:net';

/** How soon a waiting connection is probed for a peer that has gone. */
export const KEEP_ALIVE_PROBE_MS = 30_000;

/** Work in progress per connection: the idle timeout comes back when the last of it ends. */
const working = new WeakMap<Socket, number>();

/**
 * Lift the idle timeout of `socket` until the returned function is called (the idle timeout of
 * `idleTimeoutMs` is then set again, unless other work on the same connection is still going).
 */
export function holdIdleTimeout(socket: Socket | null | undefined, idleTimeoutMs: number): () => void {
  // Injected requests (tests) have no real socket to keep.
  if (!(socket instanceof Socket)) return () => {};
  working.set(socket, (working.get(socket) ?? 0) + 1);
  socket.setTimeout(0);
  socket.setKeepAlive(true, KEEP_ALIVE_PROBE_MS);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const left = (working.get(socket) ?? 1) - 1;
    working.set(socket, left);
    if (left === 0 && !socket.destroyed) socket.setTimeout(idleTimeoutMs);
  };
}

/**
 * Run `work` with the connection's idle timeout held; its signal is aborted when the connection
 * closes (the client is gone), so work it alone waits for can stop.
 */
export async function whileServerWorks<T>(
  socket: Socket | null | undefined,
  idleTimeoutMs: number,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const release = holdIdleTimeout(socket, idleTimeoutMs);
  const gone = new AbortController();
  const onClose = () => gone.abort();
  // Injected requests (tests) have no real connection to lose.
  if (socket instanceof Socket) {
    if (socket.destroyed) gone.abort();
    else socket.once('close', onClose);
  }
  try {
    return await work(gone.signal);
  } finally {
    if (socket instanceof Socket) socket.off('close', onClose);
    release();
  }
}
