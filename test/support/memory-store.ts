// An in-memory Store for unit tests of code that only needs the interface (jobs, routes). It runs
// the same contract suite as SQLite (src/server/data/store.contract.ts), so it cannot drift.
import { uniqueDownloadName } from '../../src/server/data/download-names.js';
import type {
  ItemEdit,
  ItemRow,
  JobPatch,
  JobRow,
  JobStatus,
  ResultRow,
  SessionRow,
  Store,
} from '../../src/server/data/store.js';

const copyJob = (j: JobRow): JobRow => ({
  ...j,
  itemIds: [...j.itemIds],
  options: structuredClone(j.options),
});
const copyResult = (r: ResultRow): ResultRow => ({
  ...r,
  sources: [...r.sources],
  chapters: r.chapters.map((c) => ({ ...c })),
  details: { ...r.details },
});
const byNewest = (a: { createdAt: number; seq: number }, b: { createdAt: number; seq: number }) =>
  b.createdAt - a.createdAt || b.seq - a.seq;

export class MemoryStore implements Store {
  sessions = new Map<string, SessionRow & { secretHash: string }>();
  items: Array<ItemRow & { position: number | null }> = [];
  jobs = new Map<string, JobRow & { seq: number }>();
  results: Array<ResultRow & { seq: number }> = [];
  /** Every updateJob patch, in order, to check the transitions a job went through. */
  jobHistory: Array<{ id: string; patch: JobPatch }> = [];
  private seq = 0;

  async createSession(secretHash: string, sid: string, csrfToken: string, now: number): Promise<SessionRow> {
    if (this.sessions.has(sid) || (await this.sessionBySecretHash(secretHash)))
      throw new Error(`duplicate session ${sid}`);
    const row = { sid, csrfToken, createdAt: now, lastSeenAt: now };
    this.sessions.set(sid, { ...row, secretHash });
    return { ...row };
  }
  async sessionBySecretHash(secretHash: string) {
    const s = [...this.sessions.values()].find((x) => x.secretHash === secretHash);
    return s && this.publicSession(s);
  }
  async sessionBySid(sid: string) {
    const s = this.sessions.get(sid);
    return s && this.publicSession(s);
  }
  async touchSession(sid: string, now: number) {
    const s = this.sessions.get(sid);
    if (s && s.lastSeenAt < now) s.lastSeenAt = now;
  }
  async idleSessions(before: number) {
    const busy = new Set(
      [...this.jobs.values()]
        .filter((j) => j.status === 'queued' || j.status === 'running')
        .map((j) => j.sid),
    );
    return [...this.sessions.values()]
      .filter((s) => s.lastSeenAt < before && !busy.has(s.sid))
      .sort((a, b) => a.lastSeenAt - b.lastSeenAt)
      .map((s) => this.publicSession(s));
  }
  async deleteSession(sid: string) {
    this.sessions.delete(sid);
    this.items = this.items.filter((i) => i.sid !== sid);
    this.results = this.results.filter((r) => r.sid !== sid);
    for (const [id, j] of this.jobs) if (j.sid === sid) this.jobs.delete(id);
  }

  async addItemIfUnder(item: ItemRow, limit: number) {
    // No await before the push: the check and the insert happen in one turn of the event loop.
    if (!this.sessions.has(item.sid)) throw new Error(`no session ${item.sid}`);
    if (
      this.items.some((i) => i.id === item.id || (i.sid === item.sid && i.newfilename === item.newfilename))
    ) {
      throw new Error(`duplicate item ${item.id}`);
    }
    if (this.items.filter((i) => i.sid === item.sid).length >= limit) return false;
    this.items.push({ ...item, position: null });
    return true;
  }
  async listItems(sid: string, appid: string) {
    const mine = this.items.filter((i) => i.sid === sid && i.appid === appid);
    const placed = mine.filter((i) => i.position !== null).sort((a, b) => a.position! - b.position!);
    return [...placed, ...mine.filter((i) => i.position === null)].map((i) => this.publicItem(i));
  }
  async countItems(sid: string) {
    return this.items.filter((i) => i.sid === sid).length;
  }
  async itemsOwnedBy(sid: string, ids: string[]) {
    return ids.flatMap((id) =>
      this.items.filter((i) => i.id === id && i.sid === sid).map((i) => this.publicItem(i)),
    );
  }
  async itemById(id: string) {
    const i = this.items.find((x) => x.id === id);
    return i && this.publicItem(i);
  }
  async itemByStoredName(sid: string, newfilename: string) {
    const i = this.items.find((x) => x.sid === sid && x.newfilename === newfilename);
    return i && this.publicItem(i);
  }
  async deleteItem(sid: string, id: string) {
    const i = this.items.find((x) => x.id === id && x.sid === sid);
    if (!i) return undefined;
    this.items = this.items.filter((x) => x !== i);
    return this.publicItem(i);
  }
  async saveItem(sid: string, id: string, edit: ItemEdit) {
    const i = this.items.find((x) => x.id === id && x.sid === sid);
    if (!i) return false;
    Object.assign(i, edit);
    return true;
  }
  async fixItemLength(sid: string, id: string, duration: number) {
    const i = this.items.find((x) => x.id === id && x.sid === sid);
    if (!i) return false;
    i.duration = duration;
    if (i.end != null && i.end >= duration) i.end = null;
    return true;
  }
  async saveOrder(sid: string, appid: string, ids: string[]) {
    const mine = this.items.filter((i) => i.sid === sid && i.appid === appid);
    for (const i of mine) i.position = null;
    [...new Set(ids)].forEach((id, position) => {
      const i = mine.find((x) => x.id === id);
      if (i) i.position = position;
    });
  }

  async addJob(job: JobRow) {
    if (this.jobs.has(job.id)) throw new Error(`duplicate job ${job.id}`);
    if (!this.sessions.has(job.sid)) throw new Error(`no session ${job.sid}`);
    this.jobs.set(job.id, { ...copyJob(job), seq: ++this.seq });
  }
  async addJobIfUnder(job: JobRow, limit: number) {
    // No await before the insert: the count and the insert happen in one turn of the event loop.
    const unfinished = [...this.jobs.values()].filter(
      (j) => j.sid === job.sid && (j.status === 'queued' || j.status === 'running'),
    );
    if (unfinished.length >= limit) return false;
    await this.addJob(job);
    return true;
  }
  async getJob(id: string) {
    const j = this.jobs.get(id);
    return j && this.publicJob(j);
  }
  async updateJob(id: string, patch: JobPatch) {
    const j = this.jobs.get(id);
    if (!j) return;
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as JobPatch;
    this.jobHistory.push({ id, patch: { ...defined } });
    Object.assign(j, structuredClone(defined));
  }
  async endJob(id: string, patch: JobPatch) {
    const status = this.jobs.get(id)?.status;
    if (status !== 'queued' && status !== 'running') return false;
    await this.updateJob(id, patch);
    return true;
  }
  async jobsWithStatus(status: JobStatus) {
    return [...this.jobs.values()]
      .filter((j) => j.status === status)
      .sort((a, b) => a.createdAt - b.createdAt || a.seq - b.seq)
      .map((j) => this.publicJob(j));
  }
  async latestJob(sid: string) {
    const [j] = [...this.jobs.values()].filter((x) => x.sid === sid).sort(byNewest);
    return j && this.publicJob(j);
  }

  async addResult(result: ResultRow) {
    if (this.results.some((r) => r.id === result.id)) throw new Error(`duplicate result ${result.id}`);
    if (!this.jobs.has(result.jobId)) throw new Error(`no job ${result.jobId}`);
    const taken = new Set(this.results.filter((r) => r.sid === result.sid).map((r) => r.downloadName));
    const stored = { ...copyResult(result), downloadName: uniqueDownloadName(result.downloadName, taken) };
    this.results.push({ ...stored, seq: ++this.seq });
    return copyResult(stored);
  }
  async listResults(sid: string) {
    return this.results
      .filter((r) => r.sid === sid)
      .sort(byNewest)
      .map((r) => this.publicResult(r));
  }
  async getResult(sid: string, id: string) {
    const r = this.results.find((x) => x.sid === sid && x.id === id);
    return r && this.publicResult(r);
  }
  async resultById(id: string) {
    const r = this.results.find((x) => x.id === id);
    return r && this.publicResult(r);
  }
  async deleteResult(sid: string, id: string) {
    const r = this.results.find((x) => x.sid === sid && x.id === id);
    if (!r) return undefined;
    this.results = this.results.filter((x) => x !== r);
    return this.publicResult(r);
  }

  async close() {}

  private publicSession({ secretHash: _h, ...s }: SessionRow & { secretHash: string }): SessionRow {
    return { ...s };
  }
  private publicItem({ position: _p, ...i }: ItemRow & { position: number | null }): ItemRow {
    // As the databases read it back: no span or title saved is null.
    return { ...i, start: i.start ?? null, end: i.end ?? null, chapterTitle: i.chapterTitle ?? null };
  }
  private publicJob({ seq: _s, ...j }: JobRow & { seq: number }): JobRow {
    return copyJob(j);
  }
  private publicResult({ seq: _s, ...r }: ResultRow & { seq: number }): ResultRow {
    return copyResult(r);
  }
}

/** A MemoryStore whose job writes fail the first `failures` times (a database that drops out). */
export class RefusingJobWrites extends MemoryStore {
  tries = 0;
  constructor(private failures: number) {
    super();
  }
  override async updateJob(id: string, patch: JobPatch) {
    this.tries++;
    if (this.failures-- > 0) throw new Error('connection terminated unexpectedly');
    return super.updateJob(id, patch);
  }
  /** Refuse the next `n` job writes from now on. */
  refuseNext(n: number) {
    this.failures = n;
  }
}
