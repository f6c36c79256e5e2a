import { describe, expect, it } from 'vitest';
import { fsReason } from './fs-reason.js';

const err = (code: string, message = `${code}: something, open '/x'`) => Object.assign(new Error(message), { code });

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
