import { describe, expect, it } from 'vitest';
import { fairOrder, WorkPool } from './work-pool.js';

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const tick = () => new Promise<void>((r) => setImmediate(r));

describe('WorkPool', () => {
  it('runs at most `concurrency` tasks at once and starts the rest in the order they came', async () => {
    const pool = new WorkPool(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const results = gates.map((g, i) =>
      pool.submit({
        start: async () => {
          started.push(i);
          await g.promise;
          return i * 10;
        },
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(pool.active).toBe(2);
    expect(pool.waiting).toBe(2);
    gates[1].resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0].resolve();
    gates[2].resolve();
    gates[3].resolve();
    expect(await Promise.all(results)).toEqual([0, 10, 20, 30]);
    expect(pool.active).toBe(0);
  });

  it('tells a waiting task how many merges are ahead, each time the number changes', async () => {
    const pool = new WorkPool(1);
    const gates = [deferred(), deferred(), deferred()];
    const waits: Array<[number, number]> = [];
    const results = gates.map((g, i) =>
      pool.submit({ onWait: (ahead) => waits.push([i, ahead]), start: () => g.promise }),
    );
    await tick();
    expect(waits).toEqual([
      [1, 1],
      [2, 2],
    ]);
    gates[0].resolve();
    await tick();
    expect(waits).toEqual([
      [1, 1],
      [2, 2],
      [2, 1],
    ]);
    gates[1].resolve();
    gates[2].resolve();
    await Promise.all(results);
    expect(waits).toHaveLength(3);
  });

  it('keeps going after a task fails, and passes the failure to its caller only', async () => {
    const pool = new WorkPool(1);
    const bad = pool.submit({ start: async () => Promise.reject(new Error('boom')) });
    const throwsAtOnce = pool.submit({
      start: () => {
        throw new Error('sync boom');
      },
    });
    const good = pool.submit({ start: async () => 'ok' });
    await expect(bad).rejects.toThrow('boom');
    await expect(throwsAtOnce).rejects.toThrow('sync boom');
    expect(await good).toBe('ok');
  });

  it('drain takes waiting tasks out of line so they never start', async () => {
    const pool = new WorkPool(1);
    const gate = deferred();
    let secondStarted = false;
    const first = pool.submit({ start: () => gate.promise });
    const second = pool.submit({
      start: async () => {
        secondStarted = true;
      },
    });
    await tick();
    const drained = pool.drain();
    expect(drained).toHaveLength(1);
    drained[0].cancel(new Error('shutting down'));
    await expect(second).rejects.toThrow('shutting down');
    gate.resolve();
    await first;
    await tick();
    expect(secondStarted).toBe(false);
  });

  it('withdraw takes one waiting task out of line and moves those behind it up', async () => {
    const pool = new WorkPool(1);
    const gate = deferred();
    const waits: Array<[string, number]> = [];
    const started: string[] = [];
    const task = (name: string) => ({
      onWait: (ahead: number) => waits.push([name, ahead]),
      start: async () => {
        started.push(name);
        if (name === 'a') await gate.promise;
      },
    });
    const [a, b, c] = [task('a'), task('b'), task('c')];
    const done = [pool.submit(a), pool.submit(b), pool.submit(c)];
    await tick();
    expect(pool.withdraw(b, new Error('cancelled'))).toBe(true);
    await expect(done[1]).rejects.toThrow('cancelled');
    expect(waits).toEqual([
      ['b', 1],
      ['c', 2],
      ['c', 1],
    ]);
    expect(pool.withdraw(a, new Error('running'))).toBe(false);
    gate.resolve();
    await Promise.all([done[0], done[2]]);
    expect(started).toEqual(['a', 'c']);
  });

  it('refuses a concurrency below one', () => {
    expect(() => new WorkPool(0)).toThrow(/concurrency/);
  });

  it("takes sessions in turn: a second and third session go before the first one's second merge", async () => {
    const pool = new WorkPool(1);
    const started: string[] = [];
    const places = new Map<string, number>();
    const gates = new Map<string, ReturnType<typeof deferred<void>>>();
    const submit = (name: string) => {
      const gate = deferred<void>();
      gates.set(name, gate);
      return pool.submit({
        key: name[0],
        onWait: (ahead) => places.set(name, ahead),
        start: async () => {
          started.push(name);
          await gate.promise;
        },
      });
    };
    const all = ['A1', 'A2', 'A3'].map(submit);
    all.push(submit('B1'), submit('C1'));
    await tick();
    // Each person is told their own place: B and C next, then A's own.
    expect(Object.fromEntries(places)).toEqual({ A2: 3, A3: 4, B1: 1, C1: 2 });
    for (const name of ['A1', 'B1', 'C1', 'A2', 'A3']) {
      expect(started.at(-1)).toBe(name);
      gates.get(name)!.resolve();
      await tick();
    }
    await Promise.all(all);
    expect(started).toEqual(['A1', 'B1', 'C1', 'A2', 'A3']);
  });
});

describe('fairOrder', () => {
  const w = (key: string, n: number) => ({ task: { key }, n });
  it('serves the key served longest ago first, in the order each key came', () => {
    const line = [w('a', 1), w('a', 2), w('b', 1), w('a', 3), w('c', 1), w('b', 2)];
    const order = fairOrder(line, new Map([['a', 5]]));
    expect(order.map((x) => `${x.task.key}${x.n}`)).toEqual(['b1', 'c1', 'a1', 'b2', 'a2', 'a3']);
    expect(fairOrder([], new Map())).toEqual([]);
  });
});
