// A fresh, empty PostgreSQL database per test file on the scaled suites' server, dropped after.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  url: string;
  /** Look at the rows directly, as an operator would with psql. */
  query<R extends pg.QueryResultRow>(sql: string, values?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

export async function freshDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `am_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let pool: pg.Pool | undefined;
  return {
    url: url.toString(),
    async query<R extends pg.QueryResultRow>(sql: string, values: unknown[] = []) {
      if (!pool) {
        pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
        // An idle connection cut by a server stopped on purpose (a test of an outage): the next
        // query opens another.
        pool.on('error', () => {});
      }
      return (await pool.query<R>(sql, values)).rows;
    },
    async drop() {
      await pool?.end();
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
