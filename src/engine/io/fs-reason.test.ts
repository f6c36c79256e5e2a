import { describe, expect, it } from 'vitest';
import { fsReason, isDiskFull } from './fs-reason.js';

const err = (code: string, message = `${code}: something, open '/x'`) =>
  Object.assign(new Error(message), { code });

describe('fsReason', () => {
  it('says what a person understands, not an errno name', () => {
    expect(fsReason(err('ENOENT'))).toBe('no such file or folder');
    expect(fsReason(err('EACCES'))).toBe('permission denied');
    expect(fsReason(err('ENOSPC'))).toBe('no space left on the device');
    expect(fsReason(err('EISDIR'))).toBe('is a folder');
  });

  it('keeps an unlisted code, and the message of an error without one', () => {
    expect(fsReason(err('EWEIRD'))).toBe('EWEIRD');
    expect(fsReason(new Error('it broke'))).toBe('it broke');
    expect(fsReason('odd')).toBe('odd');
  });
});

describe('isDiskFull', () => {
  it('knows a full disk and a spent quota by their codes, and nothing by its words', () => {
    expect(isDiskFull(err('ENOSPC'))).toBe(true);
    expect(isDiskFull(err('EDQUOT'))).toBe(true);
    expect(isDiskFull(err('EACCES'))).toBe(false);
    expect(isDiskFull(new Error('ENOSPC: no space left on device'))).toBe(false);
    expect(isDiskFull(undefined)).toBe(false);
  });
});
