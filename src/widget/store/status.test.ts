import { describe, expect, it } from 'vitest';
import { isFollowed, parseStatus, percentOf, runningMerge } from './status.js';

describe('merge status as the widget reads it', () => {
  it('a whole number is a bar position; anything else is a message', () => {
    expect(percentOf('0')).toBe(0);
    expect(percentOf(' 73 ')).toBe(73);
    expect(percentOf('250')).toBe(100);
    expect(percentOf('-3')).toBeNull();
    expect(percentOf('12.5')).toBeNull();
    expect(percentOf('bad.wav is not audio')).toBeNull();
  });

  it('reads the payload fields of docs/reference/realtime.md, and tolerates a server that sends only data', () => {
    expect(parseStatus({ data: '40', requestId: 'r1', state: 'running', percent: 40 })).toEqual({
      data: '40',
      requestId: 'r1',
      state: 'running',
      percent: 40,
    });
    expect(
      parseStatus({
        data: 'Waiting: 1 merge ahead of yours',
        requestId: null,
        state: 'queued',
        percent: null,
      }),
    ).toEqual({
      data: 'Waiting: 1 merge ahead of yours',
      requestId: null,
      state: 'queued',
      percent: null,
    });
    expect(parseStatus({ data: 12 })).toEqual({ data: '12', percent: 12 });
    expect(parseStatus({ data: 'x', state: 'exploded', requestId: 7 })).toEqual({ data: 'x', percent: null });
    expect(parseStatus({})).toBeNull();
    expect(parseStatus(null)).toBeNull();
    expect(parseStatus('42')).toBeNull();
  });

  it("follows only its own merge's events", () => {
    const mine = parseStatus({ data: '5', requestId: 'mine', state: 'running', percent: 5 })!;
    const theirs = parseStatus({ data: '90', requestId: 'theirs', state: 'running', percent: 90 })!;
    const anonymous = parseStatus({ data: '90', requestId: null, state: 'running', percent: 90 })!;
    const legacy = parseStatus({ data: '50' })!;
    expect(isFollowed(mine, 'mine')).toBe(true);
    expect(isFollowed(theirs, 'mine')).toBe(false);
    expect(isFollowed(anonymous, 'mine')).toBe(false);
    expect(isFollowed(anonymous, null)).toBe(true);
    expect(isFollowed(legacy, 'mine')).toBe(true);
  });

  it('GET status names a merge to follow only while it is queued or running', () => {
    expect(runningMerge({ state: 'none' })).toBeNull();
    expect(runningMerge({ state: 'succeeded', requestId: 'r', percent: 100, text: '100' })).toBeNull();
    expect(
      runningMerge({ state: 'failed', requestId: 'r', percent: 40, text: 'The server restarted' }),
    ).toBeNull();
    expect(runningMerge({ state: 'running', requestId: 'r', percent: 37, text: '37' })).toEqual({
      data: '37',
      requestId: 'r',
      state: 'running',
      percent: 37,
    });
    expect(runningMerge({ state: 'queued', requestId: null, percent: null, text: '' })).toEqual({
      data: '0',
      requestId: null,
      state: 'queued',
      percent: 0,
    });
  });
});
