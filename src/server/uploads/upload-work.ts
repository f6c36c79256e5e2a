// The one pool for everything an upload costs after its bytes are in: the probe, the measuring
// decode and the waveform. Each task runs at most one ffmpeg or ffprobe at a time, so the server
// has at most `concurrency` of them alive for uploads however many arrive at once. Waiting tasks
// are taken round-robin across sessions (the merges' pool, jobs/in-process/work-pool.ts): sixty
// people's one file each go in order of arrival, and one person's six long files keep another's
// waveform waiting behind at most one of them.
import { AbortError } from '../../engine/index.js';
import { WorkPool, type PoolTask } from '../jobs/in-process/work-pool.js';

export interface UploadWork {
  /**
   * Run `work` for session `sid` once its turn comes. A `signal` that aborts while the task waits
   * takes it out of the line (it rejects with an AbortError and never starts); once started, the
   * work itself must heed the signal.
   */
  run<T>(sid: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for their turn. */
  readonly waiting: number;
  /** Refuse every waiting task (shutdown); running ones finish or end by their own signals. */
  close(): void;
}

/** What one task of the pool does when it is run without one (a test's deps, a lone call). */
export const unpooled: UploadWork = {
  run: (_sid, work) => work(),
  active: 0,
  waiting: 0,
  close() {},
};

export function createUploadWork(concurrency: number): UploadWork {
  const pool = new WorkPool(Math.max(1, Math.floor(concurrency) || 1));
  let closed = false;
  return {
    run<T>(sid: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (closed) return Promise.reject(new AbortError('The server is shutting down'));
      signal?.throwIfAborted();
      const task: PoolTask<T> = { key: sid, start: work };
      const submitted = pool.submit(task);
      if (!signal) return submitted;
      const leave = () => pool.withdraw(task, new AbortError('The upload is no longer waited for'));
      signal.addEventListener('abort', leave, { once: true });
      return submitted.finally(() => signal.removeEventListener('abort', leave));
    },
    get active() {
      return pool.active;
    },
    get waiting() {
      return pool.waiting;
    },
    close() {
      closed = true;
      for (const t of pool.drain()) t.cancel(new AbortError('The server is shutting down'));
    },
  };
}
