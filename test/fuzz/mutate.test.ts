import { describe, expect, it } from 'vitest';
import { mutate, seededRandom } from './mutate.js';

const source = Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7) & 0xff));

describe('fuzz mutations', () => {
  it('gives the same bytes and steps for the same seed, and others for another', () => {
    const a = mutate(source, seededRandom(42));
    const b = mutate(source, seededRandom(42));
    const c = mutate(source, seededRandom(43));
    expect(a.bytes.equals(b.bytes)).toBe(true);
    expect(a.ops).toEqual(b.ops);
    expect(a.bytes.equals(c.bytes) && a.ops.join() === c.ops.join()).toBe(false);
  });

  it('changes the file as each step says, and leaves the source alone', () => {
    const copy = Buffer.from(source);
    const seen = new Set<string>();
    for (let seed = 1; seed <= 200; seed++) {
      const m = mutate(source, seededRandom(seed));
      expect(m.ops.length).toBeGreaterThanOrEqual(1);
      expect(m.ops.length).toBeLessThanOrEqual(3);
      for (const op of m.ops) seen.add(op.split(' ')[0]);
      if (m.ops.length === 1) {
        const words = m.ops[0].split(' ');
        const kind = words[0];
        if (kind === 'truncate') expect(m.bytes.length).toBe(Number(words[2])); // "truncate at N of M"
        if (kind === 'junk' || kind === 'duplicate')
          expect(m.bytes.length).toBe(source.length + Number(words[1]));
        if (kind === 'bitflip') {
          expect(m.bytes.length).toBe(source.length);
          expect(m.bytes.equals(source)).toBe(false);
        }
      }
    }
    expect([...seen].sort()).toEqual(['bitflip', 'duplicate', 'junk', 'truncate']);
    expect(source.equals(copy)).toBe(true);
  });
});
