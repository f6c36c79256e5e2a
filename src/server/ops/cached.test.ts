import { describe, expect, it } from 'vitest';
import { cachedFor } from './cached.js';

describe('cachedFor', () => {
  it('reads once per window, shares a read in flight, and reads again after a failure', async () => {
    let t = 0;
    let reads = 0;
    let fail = false;
    const read = cachedFor(
      2000,
      async () => {
        reads++;
        if (fail) throw new Error('down');
        return reads;
      },
      () => t,
    );
    expect(await Promise.all([read(), read(), read()])).toEqual([1, 1, 1]);
    t = 1999;
    expect(await read()).toBe(1);
    t = 2000;
    expect(await read()).toBe(2);
    t = 5000;
    fail = true;
    await expect(read()).rejects.toThrow('down');
    fail = false;
    expect(await read()).toBe(4);
    expect(reads).toBe(4);
  });
});
