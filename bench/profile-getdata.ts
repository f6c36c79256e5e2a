// Ad-hoc: load getDataJson like the bench does, with the server under --cpu-prof.
import autocannon from 'autocannon';
import { makeCorpus } from './corpus.js';
import { headers, openSession, startServer } from './server-process.js';
import { openAsBlob } from 'node:fs';
import path from 'node:path';

const c = await makeCorpus(() => {});
const server = await startServer({}, process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []);
const s = await openSession(server.base);
const files = [...c.clips, ...c.clips].slice(0, 200);
for (let i = 0; i < files.length; i += 20) {
  const form = new FormData();
  form.append('appid', s.appid);
  for (const f of files.slice(i, i + 20)) form.append('files', await openAsBlob(f), path.basename(f));
  const res = await fetch(`${server.base}/app/merge/upload`, {
    method: 'POST',
    headers: headers(s, false),
    body: form,
  });
  if (!res.ok) throw new Error(await res.text());
}
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
