// The client's address for per-address limits outside Fastify (the realtime port): the socket's
// peer, unless that peer is one of the TRUST_PROXY proxies, in which case the nearest address in
// X-Forwarded-For that is not a trusted proxy. A bare count is never trusted (config.ts).
import type { IncomingMessage } from 'node:http';
import net from 'node:net';

const NAMED: Record<string, Array<[string, number, 'ipv4' | 'ipv6']>> = {
  loopback: [
    ['127.0.0.0', 8, 'ipv4'],
    ['::1', 128, 'ipv6'],
  ],
  linklocal: [
    ['169.254.0.0', 16, 'ipv4'],
    ['fe80::', 10, 'ipv6'],
  ],
  uniquelocal: [
    ['10.0.0.0', 8, 'ipv4'],
    ['172.16.0.0', 12, 'ipv4'],
    ['192.168.0.0', 16, 'ipv4'],
    ['fc00::', 7, 'ipv6'],
  ],
};

const plain = (address: string) => address.replace(/^::ffff:(?=\d+\.)/, '');

export function clientAddressFor(trusted: readonly string[]): (req: IncomingMessage) => string {
  const list = new net.BlockList();
  for (const entry of trusted) {
    for (const [subnet, bits, family] of NAMED[entry] ?? []) list.addSubnet(subnet, bits, family);
    if (NAMED[entry]) continue;
    const [address, bits] = entry.split('/');
    const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  const isTrusted = (address: string) => {
    const a = plain(address);
    const family = net.isIP(a);
    return family !== 0 && list.check(a, family === 6 ? 'ipv6' : 'ipv4');
  };
  return (req) => {
    let address = plain(req.socket.remoteAddress ?? '');
    if (trusted.length === 0 || !isTrusted(address)) return address;
    const forwarded = String(req.headers['x-forwarded-for'] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    // From the nearest hop outwards: the first address no trusted proxy vouches for.
    for (let i = forwarded.length - 1; i >= 0; i--) {
      address = plain(forwarded[i]);
      if (!isTrusted(address)) return address;
    }
    return address;
  };
}
