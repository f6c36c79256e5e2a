import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './tus-upload.js';

describe("the wait a 429's Retry-After asks for", () => {
  it('reads seconds', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('0')).toBe(0);
  });

  it('reads an HTTP date as the time left until it', () => {
    const now = Date.parse('2026-11-22T15:00:00Z');
    expect(retryAfterMs('Sun, 22 Nov 2026 15:00:07 GMT', now)).toBe(7000);
    expect(retryAfterMs('Sun, 22 Nov 2026 14:59:00 GMT', now)).toBe(0);
  });

  it('waits a few seconds when the header is missing or unreadable', () => {
    expect(retryAfterMs(undefined)).toBe(5000);
    expect(retryAfterMs('soon')).toBe(5000);
  });
});
