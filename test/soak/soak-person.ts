// One simulated person, as the widget would act for them: open the page, upload 3 to 6 files by
// tus, list them, reorder, trim one, listen on the realtime channel, merge (MP3 or M4B, some with
// loudness), download the result. A web process that dies under them is a reason to go on with the
// other one (a browser may reach either); what they saw of their merge is recorded as its fate.
import { io, type Socket } from 'socket.io-client';
import { tusClient } from '../support/tus-requests.js';
import type { MergeFate } from './soak-report.js';
import type { EndLine, Slot } from './soak-cluster.js';

export interface MediaFile {
  path: string;
  filename: string;
  size: number;
}

export interface PersonDeps {
  webs: Slot[];
  media: MediaFile[];
  /** Epoch ms after which nothing more is waited for: a merge not ended by then is lost. */
  deadline: number;
  getDataJsonMs: number[];
  endLines: Map<string, EndLine>;
}

interface Session {
  cookie: string;
  csrf: string;
  sid: string;
  appid: string;
}

interface Answer {
  status: number;
  text: string;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

/** A person's pick of web process, moved to the other one when theirs stops answering. */
class Browser {
  private web: number;
  session!: Session;
  constructor(
    private readonly deps: PersonDeps,
    index: number,
  ) {
    this.web = index % deps.webs.length;
  }

  get slot(): Slot {
    return this.deps.webs[this.web];
  }

  /** `work` on the current web process; on a dead connection or a closing process, again on the next. */
  async attempt<T>(work: (slot: Slot) => Promise<T>, isRetryable?: (v: T) => boolean): Promise<T> {
    for (;;) {
      try {
        const v = await work(this.slot);
        if (!isRetryable?.(v) || Date.now() > this.deps.deadline) return v;
      } catch (err) {
        if (Date.now() > this.deps.deadline) throw err;
      }
      this.web = (this.web + 1) % this.deps.webs.length;
      await pause(500);
    }
  }

  async open(): Promise<void> {
    const res = await this.attempt(
      (slot) => fetch(`${slot.url}/`),
      (r) => r.status >= 500,
    );
    const html = await res.text();
    const secret = /am_session=([^;]+)/.exec(res.headers.getSetCookie().join('; '))?.[1];
    const csrf = /<meta name="csrf-token" content="([^"]+)">/.exec(html)?.[1];
    const sid = /id="audio-merge-tool"[^>]*data-sid="([^"]+)"/.exec(html)?.[1];
    const appid = /id="audio-merge-tool"[^>]*data-appid="([^"]+)"/.exec(html)?.[1];
    if (!secret || !csrf || !sid || !appid) throw new Error(`the page (${res.status}) had no session`);
    this.session = { cookie: `am_session=${secret}`, csrf, sid, appid };
  }

  private headers(): Record<string, string> {
    return { cookie: this.session.cookie, 'x-csrf-token': this.session.csrf };
  }

  post(url: string, body: unknown, slot: Slot = this.slot): Promise<Answer> {
    return fetch(`${slot.url}${url}`, {
      method: 'POST',
      headers: { ...this.headers(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, text: await r.text() }));
  }

  postRetried(url: string, body: unknown): Promise<Answer> {
    return this.attempt(
      (slot) => this.post(url, body, slot),
      (a) => a.status >= 500,
    );
  }

  get(url: string): Promise<{ status: number; bytes: number; text: string }> {
    return this.attempt(
      async (slot) => {
        const r = await fetch(`${slot.url}${url}`, { headers: { cookie: this.session.cookie } });
        const body = Buffer.from(await r.arrayBuffer());
        return { status: r.status, bytes: body.length, text: body.toString('utf8', 0, 200_000) };
      },
      (a) => a.status >= 500,
    );
  }

  /** One file by tus, begun again on the other web process when its upload's process dies. */
  async upload(file: MediaFile): Promise<void> {
    const done = await this.attempt(
      async (slot) => {
        const tus = tusClient(slot.url, this.session);
        const created = await tus.create(file.size, { filename: file.filename, appid: this.session.appid });
        if (created.status !== 201) return created.status;
        const location = String(created.headers.location);
        const sent = await tus.patch(location, file.path, 0, file.size);
        return sent.status;
      },
      (status) => status >= 500 || status === 0,
    );
    if (done !== 200 && done !== 204) throw new Error(`upload of ${file.filename} answered ${done}`);
  }
}

/** The session's channel on its web process's realtime port: the last state told for `requestId`. */
function listen(slot: Slot, s: Session): { state(requestId: string): string | undefined; close(): void } {
  const states = new Map<string, string>();
  const socket: Socket = io(`http://127.0.0.1:${slot.socketPort}`, {
    path: '/socket.io',
    extraHeaders: { Cookie: s.cookie, Origin: slot.url },
    reconnectionDelay: 100,
    reconnectionDelayMax: 2000,
  });
  const channel = `status-channel-${s.appid}-${s.sid}`;
  socket.on('connect', () => socket.emit('subscribe', { channel }));
  socket.on('NewStatus', (_channel: string, payload: { requestId?: string | null; state?: string }) => {
    if (payload.requestId && payload.state) states.set(payload.requestId, payload.state);
  });
  return { state: (id) => states.get(id), close: () => socket.close() };
}

const shuffled = <T>(xs: T[], seed: number): T[] =>
  xs
    .map((x, i) => ({ x, k: Math.sin(seed * 97 + i * 31) }))
    .sort((a, b) => a.k - b.k)
    .map((e) => e.x);

/** What GET /app/merge/status says of this request's merge, polled until it has ended or the deadline. */
async function settledByStatus(b: Browser, requestId: string, deps: PersonDeps): Promise<MergeFate> {
  let seenOurs = false;
  for (let tries = 0; Date.now() < deps.deadline; tries++) {
    const st = await b.get('/app/merge/status').catch(() => null);
    const s =
      st?.status === 200
        ? (JSON.parse(st.text) as { requestId?: string; state: string; code?: string })
        : null;
    if (s?.requestId === requestId) {
      seenOurs = true;
      if (s.state === 'succeeded') return { kind: 'succeeded', mergeMs: Number.NaN, engineSeconds: null };
      if (TERMINAL.has(s.state)) return { kind: 'failed', code: s.code ?? s.state };
    } else if (s && !seenOurs && tries >= 5) {
      // Never recorded: the web process died before it took the request (the person saw it fail).
      return { kind: 'failed', code: 'web-died-before-queued' };
    }
    await pause(1000);
  }
  return { kind: 'lost', why: `${requestId}: never ended (${seenOurs ? 'recorded' : 'never seen'})` };
}

/** mergemp3, answered or (its web process dead) followed on the status route. */
async function merge(b: Browser, ids: string[], index: number, deps: PersonDeps): Promise<MergeFate> {
  const requestId = `soak-${index}`;
  const options = { format: index % 2 === 0 ? 'mp3' : 'm4b', ...(index % 3 === 0 ? { loudness: -16 } : {}) };
  const started = performance.now();
  const answer = await b
    .post('/app/merge/mergemp3', { items: ids.map((id) => ({ id })), options, requestId })
    .catch(() => null);
  const mergeMs = performance.now() - started;
  if (answer?.status === 200) return { kind: 'succeeded', mergeMs, engineSeconds: null };
  if (answer && answer.status < 500) {
    const body = JSON.parse(answer.text) as { code?: string };
    return { kind: 'failed', code: body.code ?? String(answer.status) };
  }
  return settledByStatus(b, requestId, deps);
}

/** One person, start to end; what their merge came to. */
export async function runPerson(index: number, deps: PersonDeps): Promise<MergeFate> {
  const b = new Browser(deps, index);
  await b.open();
  const count = 3 + (index % 4);
  const files = Array.from({ length: count }, (_, k) => deps.media[(index * 7 + k * 3) % deps.media.length]);
  for (let k = 0; k < files.length; k += 3) await Promise.all(files.slice(k, k + 3).map((f) => b.upload(f)));

  const list = async () => {
    const t = performance.now();
    const a = await b.postRetried('/app/merge/getDataJson', { appid: b.session.appid });
    if (a.status === 200) deps.getDataJsonMs.push(performance.now() - t);
    return a.status === 200 ? (JSON.parse(a.text) as Array<{ id: string; duration: number }>) : [];
  };
  const items = await list();
  if (items.length !== count) throw new Error(`${count} uploads, ${items.length} listed`);
  const order = shuffled(items, index);
  await b.postRetried('/app/merge/saveOrder', { appid: b.session.appid, ids: order.map((i) => i.id) });
  const trimmed = order[0];
  await b.postRetried('/app/merge/saveItem', { id: trimmed.id, start: 0.25, end: trimmed.duration - 0.25 });
  await list();

  const channel = listen(b.slot, b.session);
  try {
    const fate = await merge(
      b,
      order.map((i) => i.id),
      index,
      deps,
    );
    if (fate.kind !== 'succeeded') return fate;
    const page = await b.get('/');
    const href = new RegExp(`/results/${b.session.sid}/[^"]+\\.(?:mp3|m4b)`).exec(page.text)?.[0];
    const file = href ? await b.get(href) : null;
    if (!file || file.status !== 200 || file.bytes === 0)
      return { kind: 'lost', why: `soak-${index}: succeeded, but its result is not there to download` };
    return fate;
  } finally {
    channel.close();
  }
}
