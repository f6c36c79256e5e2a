// The files waiting and going up: a few at once, each finishing only after the files chosen
// before it have finished (stored or refused), so items arrive in the order chosen. A batch ends
// when nothing is waiting or running.
import type { UploadOutcome } from '../api/upload-request.js';

export interface QueueCallbacks<T> {
  /** Send one file; `mayFinish` resolves when the files before it are settled. */
  send(entry: T, mayFinish: () => Promise<void>): Promise<UploadOutcome>;
  settled(entry: T, outcome: UploadOutcome): void;
  /** A file whose bytes are in waits for the files chosen before it. */
  waiting?(entry: T): void;
  batchEnded(stored: number, tried: number): void;
}

export interface UploadQueue<T> {
  /** Queue a file to send. */
  add(entry: T): void;
  /** Count a file refused before sending (too large). */
  refuseNow(entry: T, outcome: UploadOutcome): void;
  readonly idle: boolean;
}

export function createUploadQueue<T>(concurrency: number, cb: QueueCallbacks<T>): UploadQueue<T> {
  const waiting: Array<{ entry: T; after: Promise<void>; isOpen: () => boolean; settle: () => void }> = [];
  let running = 0;
  let stored = 0;
  let tried = 0;
  // The promise the next file's finishing waits for: the previous file's end.
  let last: Promise<void> = Promise.resolve();

  const chain = () => {
    const after = last;
    let open = false;
    void after.then(() => (open = true));
    let settle!: () => void;
    last = new Promise<void>((resolve) => (settle = resolve));
    return { after, isOpen: () => open, settle };
  };

  const endIfIdle = () => {
    if (running > 0 || waiting.length > 0) return;
    const s = stored;
    const t = tried;
    stored = 0;
    tried = 0;
    if (t > 0) cb.batchEnded(s, t);
  };

  const record = (entry: T, outcome: UploadOutcome) => {
    if (outcome.ok) stored++;
    cb.settled(entry, outcome);
  };

  const pump = () => {
    while (running < concurrency && waiting.length > 0) {
      const { entry, after, isOpen, settle } = waiting.shift()!;
      running++;
      const mayFinish = () => {
        if (!isOpen()) cb.waiting?.(entry);
        return after;
      };
      void cb.send(entry, mayFinish).then((outcome) => {
        // Settle after the previous file, even if this one failed early (never out of order).
        void after.then(() => {
          record(entry, outcome);
          settle();
          running--;
          pump();
          endIfIdle();
        });
      });
    }
  };

  return {
    add(entry) {
      tried++;
      waiting.push({ entry, ...chain() });
      pump();
    },
    refuseNow(entry, outcome) {
      // Never an item, so it takes no place in the order: said at once.
      tried++;
      record(entry, outcome);
      endIfIdle();
    },
    get idle() {
      return running === 0 && waiting.length === 0;
    },
  };
}
