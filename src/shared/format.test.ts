import { describe, expect, it } from 'vitest';
import { formatDuration, formatSize, formatUtcMinute, megabytes } from './format.js';

describe('formatting for people', () => {
  it('durations read as m:ss or h:mm:ss, the seconds truncated as a media player shows them', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(75.4)).toBe('1:15');
    expect(formatDuration(59.6)).toBe('0:59');
    expect(formatDuration(101.74)).toBe('1:41');
    expect(formatDuration(3599.99)).toBe('59:59');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(Number.NaN)).toBe('');
  });

  it('sizes read in binary units', () => {
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(5_000_000)).toBe('4.8 MB');
    expect(formatSize(20 * 1024 * 1024)).toBe('20 MB');
    expect(formatSize(3 * 1024 * 1024)).toBe('3.0 MB');
  });

  it('limits read as plain MB numbers', () => {
    expect(megabytes(500 * 1024 * 1024)).toBe('500');
    expect(megabytes(256 * 1024)).toBe('0.25');
    expect(megabytes(1.5 * 1024 * 1024)).toBe('1.5');
  });

  it('times read to the minute in UTC', () => {
    expect(formatUtcMinute(Date.UTC(2026, 10, 21, 14, 30, 59))).toBe('2026-11-21 14:30 UTC');
  });
});
