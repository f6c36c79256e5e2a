// Ad-hoc: load getDataJson like the bench does, with the server under --cpu-prof.
import autocannon from 'autocannon';
import { makeCorpus } from './corpus.js';
import { uploadMany } from './server-calls.js';
import { headers, openSession, startServer } from './server-process.js';

const c = await makeCorpus(() => {});
const server = await startServer({}, process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []);
const s = await openSession(server.base);
const files = [...c.clips, ...c.clips].slice(0, 200);
await uploadMany(server.base, s, files);
const r = await autocannon({
  url: `${server.base}/app/merge/getDataJson`,
  method: 'POST',
  connections: 50,
  duration: 5,
  headers: headers(s),
  body: JSON.stringify({ appid: s.appid }),
});
console.log('req/s', r.requests.average, 'p99', r.latency.p99, 'non2xx', r.non2xx);
await server.stop();
