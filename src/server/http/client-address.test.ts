import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddressFor } from './client-address.js';

const req = (remoteAddress: string, xff?: string) =>
  ({
    socket: { remoteAddress },
    headers: xff ? { 'x-forwarded-for': xff } : {},
  }) as unknown as IncomingMessage;

describe('the client address for per-address limits', () => {
  it("is the socket's peer unless that peer is a trusted proxy", () => {
    const none = clientAddressFor([]);
    expect(none(req('203.0.113.9', '198.51.100.1'))).toBe('203.0.113.9');
    const behind = clientAddressFor(['loopback', '10.0.0.0/8']);
    expect(behind(req('::ffff:127.0.0.1', '198.51.100.1'))).toBe('198.51.100.1');
    // The nearest address no trusted proxy vouches for: a forged first entry does not count.
    expect(behind(req('127.0.0.1', '6.6.6.6, 198.51.100.1, 10.1.2.3'))).toBe('198.51.100.1');
    expect(behind(req('203.0.113.9', '198.51.100.1'))).toBe('203.0.113.9');
    expect(behind(req('127.0.0.1'))).toBe('127.0.0.1');
  });
});
