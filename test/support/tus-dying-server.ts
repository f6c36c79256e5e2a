// A server process that stops dead between a tus upload's last byte and its store: its probe says
// "probing" on stdout and never returns, so the test that started it kills it (SIGKILL) at exactly
// that moment. Started as `node --import tsx tus-dying-server.ts DATA_DIR`; says "listening PORT".
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/server/http/app.js';
import { TEST_ORIGIN } from './test-origin.js';

const dataDir = process.argv[2];
const built = await createApp(
  {
    dataDir,
    port: 0,
    socketPort: 0,
    realtime: false,
    logLevel: 'silent',
    sweepIntervalMs: 0,
    publicOrigins: [TEST_ORIGIN],
  },
  {
    probe: () => {
      process.stdout.write('probing\n');
      return new Promise(() => {});
    },
  },
);
await built.app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening ${(built.app.server.address() as AddressInfo).port}\n`);
