import { describe, expect, it } from 'vitest';
import { startErrorReason } from './start-error.js';

const config = { host: '127.0.0.1', port: 3000, socketPort: 6001 };
const listenError = (code: string, port: number) =>
  Object.assign(new Error(`listen ${code}: address already in use 127.0.0.1:${port}`), {
    code,
    port,
    address: '127.0.0.1',
    syscall: 'listen',
  });

describe('startErrorReason', () => {
  it('names the busy port and the variable that set it', () => {
    expect(startErrorReason(listenError('EADDRINUSE', 3000), config)).toBe(
      'port 3000 on 127.0.0.1 (PORT) is already in use; stop what uses it or set PORT to a free port',
    );
    expect(startErrorReason(listenError('EADDRINUSE', 6001), config)).toMatch(
      /^port 6001 on 127\.0\.0\.1 \(SOCKET_PORT\) is already in use; .* set SOCKET_PORT/,
    );
  });

  it('says a privileged port needs another user or port', () => {
    expect(startErrorReason(listenError('EACCES', 80), { ...config, port: 80 })).toMatch(
      /^port 80 on 127\.0\.0\.1 \(PORT\) may not be opened by this user/,
    );
  });

  it('passes any other reason on as its message', () => {
    expect(startErrorReason(new Error('DATABASE_URL is not a URL'), config)).toBe(
      'DATABASE_URL is not a URL',
    );
  });
});
