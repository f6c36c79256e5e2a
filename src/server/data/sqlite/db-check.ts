// The database file is checked before the server uses it. A damaged page does not stop SQLite
// from opening the file, so the server would start and then answer 500 to every request that
// reads that page; refusing to start, with what to do, is the honest answer.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ErrorCode } from '../../errors.js';
import { openSqliteStore } from './sqlite-store.js';

/** SQLite's own words for a file that is not a sound database. */
const DAMAGE_CODES = new Set(['SQLITE_CORRUPT', 'SQLITE_NOTADB']);

export function isDamageError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && [...DAMAGE_CODES].some((c) => code.startsWith(c));
}

/** SQLite's check may list several problems over several lines; the start-up refusal is one line. */
const oneLine = (text: string): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}...` : flat;
};

/** The database file is damaged: refused at start-up, with what the operator can do. */
export class DatabaseDamagedError extends Error {
  readonly code = 'database-damaged' satisfies ErrorCode;
  constructor(file: string, detail: string) {
    super(
      `the database ${file} is damaged (${oneLine(detail)}): stop the server, move that file (and any -wal/-shm beside it) ` +
        'aside or put a backup in its place, and start again; a new empty database is then made and the ' +
        'sweep removes the stored files no session lists any more',
    );
    this.name = 'DatabaseDamagedError';
  }
}

export type CheckOutcome = { state: 'ok' | 'absent' | 'timeout' } | { state: 'damaged'; detail: string };

// Runs in a worker so that a slow check on a huge file can be given up on: better-sqlite3 is
// synchronous and cannot be interrupted on the main thread.
const CHECK_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let db;
try {
  db = new Database(workerData.file, { fileMustExist: true });
  const rows = db.pragma('quick_check(3)', { simple: false }).map((r) => Object.values(r)[0]);
  parentPort.postMessage({ ok: rows.length === 1 && rows[0] === 'ok', detail: rows.join('; ') });
} catch (err) {
  parentPort.postMessage({ ok: false, code: err && err.code, detail: String(err && err.message) });
} finally {
  try { db && db.close(); } catch {}
}
`;

interface CheckAnswer {
  ok: boolean;
  code?: string;
  detail: string;
}

/** `PRAGMA quick_check` of `file`, given up after `timeoutMs` (the caller decides what that means). */
export async function checkDatabase(file: string, timeoutMs: number): Promise<CheckOutcome> {
  if (!existsSync(file)) return { state: 'absent' };
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CHECK_SOURCE, { eval: true, workerData: { file, module } });
  worker.unref();
  let timer: NodeJS.Timeout | undefined;
  try {
    const answer = await new Promise<CheckAnswer | 'timeout'>((resolve, reject) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    if (answer === 'timeout') return { state: 'timeout' };
    if (answer.ok) return { state: 'ok' };
    if (answer.code && !isDamageError(answer)) throw new Error(`cannot open the database ${file}: ${answer.detail}`);
    return { state: 'damaged', detail: answer.detail };
  } finally {
    clearTimeout(timer);
    void worker.terminate();
  }
}

/** Check, then open: a damaged file becomes DatabaseDamagedError, whichever step finds it. */
export async function openCheckedSqliteStore(
  file: string,
  timeoutMs: number,
  log: { warn(obj: object, msg: string): void },
): Promise<ReturnType<typeof openSqliteStore>> {
  const outcome = await checkDatabase(file, timeoutMs);
  if (outcome.state === 'damaged') throw new DatabaseDamagedError(file, outcome.detail);
  if (outcome.state === 'timeout') {
    log.warn({ file, timeoutMs }, 'the database check did not finish in time; starting without it');
  }
  try {
    return openSqliteStore(file);
  } catch (err) {
    if (isDamageError(err)) throw new DatabaseDamagedError(file, (err as Error).message);
    throw err;
  }
}
