// The one Store contract against PostgreSQL: one database for the file, emptied before each case.
import { afterAll, beforeAll, inject } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../../../test/support/pg-db.js';
import { openPgStore } from './pg-store.js';
import { describeStoreContract } from '../store.contract.js';

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase(inject('databaseUrl'));
});
afterAll(async () => {
  await db?.drop();
});

describeStoreContract('postgres', async () => {
  const store = await openPgStore(db.url, { poolSize: 4 });
  await store.pool.query('TRUNCATE sessions, items, jobs, results CASCADE');
  return store;
});
