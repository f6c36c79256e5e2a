import { describe, expect, it } from 'vitest';
import { budgetProblem, mergeSeconds } from './merge-budget.js';

describe('the merge budget', () => {
  it('adds every use as kept, a gap between each two, and takes each crossfade off', () => {
    expect(mergeSeconds([10, 20, 30])).toBe(60);
    expect(mergeSeconds([10, 20, 30], { gap: 5 })).toBe(70);
    expect(mergeSeconds([10, 20, 30], { crossfade: 2 })).toBe(56);
    // A crossfade longer than half an input is shortened to half the shorter of its pair.
    expect(mergeSeconds([1, 20, 30], { crossfade: 4 })).toBe(51 - 0.5 - 4);
    expect(mergeSeconds([])).toBe(0);
  });

  it('counts the silence of gaps: 70 uses of a 0.05 s file with 60 s gaps are over an hour', () => {
    const uses = Array.from({ length: 70 }, () => ({ duration: 0.05, start: null, end: null }));
    expect(budgetProblem(uses, {}, 1)).toBeUndefined();
    expect(budgetProblem(uses, { gap: 60 }, 1)).toMatch(/1 h 10 min.*at most 1 hours/);
  });

  it('counts each use as trimmed', () => {
    const item = { duration: 600, start: 10, end: 20 };
    expect(budgetProblem([item, item], {}, 0.01)).toBeUndefined();
    expect(budgetProblem([{ ...item, start: null, end: null }], {}, 0.01)).toMatch(/too long/);
  });
});
