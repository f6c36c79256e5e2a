// An in-memory Store for unit tests of code that only needs the interface (jobs, routes).
import type { ItemRow, JobRow, JobStatus, ResultRow, SessionRow, Store } from '../../src/server/data/store.js';

export class MemoryStore implements Store {
  sessions = new Map<string, SessionRow & { secretHash: string }>();
  items: ItemRow[] = [];
  jobs = new Map<string, JobRow>();
  results: ResultRow[] = [];
  /** Every updateJob patch, in order, to check the transitions a job went through. */
  jobHistory: Array<{ id: string; patch: Partial<JobRow> }> = [];

  createSession(secretHash: string, sid: string, csrfToken: string, now: number): SessionRow {
    const row = { sid, csrfToken, createdAt: now, lastSeenAt: now };
    this.sessions.set(sid, { ...row, secretHash });
    return row;
  }
  sessionBySecretHash(secretHash: string) {
    return [...this.sessions.values()].find((s) => s.secretHash === secretHash);
  }
  sessionBySid(sid: string) {
    return this.sessions.get(sid);
  }
  touchSession(sid: string, now: number) {
    const s = this.sessions.get(sid);
    if (s) s.lastSeenAt = now;
  }
  idleSessions(before: number) {
    const busy = new Set([...this.jobs.values()].filter((j) => j.status === 'queued' || j.status === 'running').map((j) => j.sid));
    return [...this.sessions.values()].filter((s) => s.lastSeenAt < before && !busy.has(s.sid));
  }
  deleteSession(sid: string) {
    this.sessions.delete(sid);
    this.items = this.items.filter((i) => i.sid !== sid);
    this.results = this.results.filter((r) => r.sid !== sid);
    for (const [id, j] of this.jobs) if (j.sid === sid) this.jobs.delete(id);
  }

  addItem(item: ItemRow) {
    this.items.push({ ...item });
  }
  listItems(sid: string, appid: string) {
    return this.items.filter((i) => i.sid === sid && i.appid === appid);
  }
  countItems(sid: string) {
    return this.items.filter((i) => i.sid === sid).length;
  }
  itemsOwnedBy(sid: string, ids: string[]) {
    return ids.flatMap((id) => this.items.filter((i) => i.id === id && i.sid === sid));
  }
  itemByStoredName(sid: string, newfilename: string) {
    return this.items.find((i) => i.sid === sid && i.newfilename === newfilename);
  }

  addJob(job: JobRow) {
    if (this.jobs.has(job.id)) throw new Error(`duplicate job ${job.id}`);
    this.jobs.set(job.id, { ...job, itemIds: [...job.itemIds] });
  }
  getJob(id: string) {
    const j = this.jobs.get(id);
    return j && { ...j };
  }
  updateJob(id: string, patch: Partial<Omit<JobRow, 'id' | 'sid' | 'appid' | 'itemIds'>>) {
    const j = this.jobs.get(id);
    if (!j) throw new Error(`no job ${id}`);
    this.jobHistory.push({ id, patch: { ...patch } });
    Object.assign(j, patch);
  }
  jobsWithStatus(status: JobStatus) {
    return [...this.jobs.values()].filter((j) => j.status === status).map((j) => ({ ...j }));
  }

  addResult(result: ResultRow) {
    this.results.push({ ...result });
  }
  listResults(sid: string) {
    return this.results.filter((r) => r.sid === sid).sort((a, b) => b.createdAt - a.createdAt);
  }
  getResult(sid: string, id: string) {
    return this.results.find((r) => r.sid === sid && r.id === id);
  }

  close() {}
}
