// A pool of `concurrency` workers; more tasks wait in FIFO order. Each waiting task is told how
// many merges are ahead of it (running ones plus those before it in line) whenever that changes.

export interface PoolTask<T> {
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

export class WorkPool {
  private running = 0;
  private readonly line: Waiting[] = [];

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
    while (this.running < this.concurrency && this.line.length > 0) {
      const next = this.line.shift()!;
      this.running++;
      let p: Promise<unknown>;
      try {
        p = next.task.start();
      } catch (err) {
        p = Promise.reject(err);
      }
      p.then(next.resolve, next.reject).finally(() => {
        this.running--;
        this.pump();
      });
    }
    this.line.forEach((w, i) => {
      const ahead = this.running + i;
      if (ahead !== w.lastAhead) {
        w.lastAhead = ahead;
        w.task.onWait?.(ahead);
      }
    });
  }
}
