// A pool of `concurrency` workers. Waiting tasks are taken fairly across their keys (sessions):
// the next task is the oldest of the key served longest ago, so one session's queued merges never
// keep another's waiting behind more than one of them. Each waiting task is told how many merges
// are ahead of it (running ones plus those that will start before it) whenever that changes.

export interface PoolTask<T> {
  /** Whose task it is: tasks are taken round-robin across keys. */
  key?: string;
  /** Called while waiting, with the number of tasks ahead; again each time the number changes. */
  onWait?: (ahead: number) => void;
  start: () => Promise<T>;
}

interface Waiting {
  task: PoolTask<unknown>;
  lastAhead: number;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

/**
 * Pure: the order in which waiting tasks will start, given when each key was last served (a
 * higher number is more recent; a key never served goes first). Ties go to the older task.
 */
export function fairOrder<W extends { task: { key?: string } }>(
  line: readonly W[],
  lastServed: ReadonlyMap<string, number>,
): W[] {
  const served = new Map(lastServed);
  let clock = Math.max(0, ...served.values());
  const left = [...line];
  const order: W[] = [];
  while (left.length > 0) {
    let best = 0;
    for (let i = 1; i < left.length; i++) {
      const a = served.get(left[i].task.key ?? '') ?? -1;
      const b = served.get(left[best].task.key ?? '') ?? -1;
      if (a < b) best = i;
    }
    const [next] = left.splice(best, 1);
    served.set(next.task.key ?? '', ++clock);
    order.push(next);
  }
  return order;
}

export class WorkPool {
  private running = 0;
  private line: Waiting[] = [];
  /** When each key last had a task started (a counter, not a time). */
  private readonly lastServed = new Map<string, number>();
  private served = 0;
  /** Running tasks per key: a key keeps its turn while it has any. */
  private readonly runningByKey = new Map<string, number>();

  constructor(private readonly concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new Error(`concurrency must be a whole number >= 1, got ${concurrency}`);
  }

  get active(): number {
    return this.running;
  }

  get waiting(): number {
    return this.line.length;
  }

  submit<T>(task: PoolTask<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.line.push({ task, lastAhead: -1, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  /** Take every task still waiting out of the line (for shutdown); they never start. */
  drain(): Array<PoolTask<unknown> & { cancel: (reason: unknown) => void }> {
    return this.line.splice(0).map((w) => ({ ...w.task, cancel: w.reject }));
  }

  /** Take one waiting task out of the line; it never starts, and its caller gets `reason`. False when it is not waiting. */
  withdraw(task: PoolTask<unknown>, reason: unknown): boolean {
    const at = this.line.findIndex((w) => w.task === task);
    if (at < 0) return false;
    const [gone] = this.line.splice(at, 1);
    gone.reject(reason);
    this.pump();
    return true;
  }

  private pump(): void {
    this.line = fairOrder(this.line, this.lastServed);
    while (this.running < this.concurrency && this.line.length > 0) {
      const next = this.line.shift()!;
      const key = next.task.key ?? '';
      this.lastServed.set(key, ++this.served);
      this.runningByKey.set(key, (this.runningByKey.get(key) ?? 0) + 1);
      this.running++;
      let p: Promise<unknown>;
      try {
        p = next.task.start();
      } catch (err) {
        p = Promise.reject(err);
      }
      p.then(next.resolve, next.reject).finally(() => {
        this.running--;
        const left = (this.runningByKey.get(key) ?? 1) - 1;
        if (left > 0) this.runningByKey.set(key, left);
        else this.runningByKey.delete(key);
        this.pump();
      });
    }
    // Keys with nothing running or waiting need no memory of their turn.
    for (const key of this.lastServed.keys())
      if (!this.runningByKey.has(key) && !this.line.some((w) => (w.task.key ?? '') === key))
        this.lastServed.delete(key);
    this.line.forEach((w, i) => {
      const ahead = this.running + i;
      if (ahead !== w.lastAhead) {
        w.lastAhead = ahead;
        w.task.onWait?.(ahead);
      }
    });
  }
}
