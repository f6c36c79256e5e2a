// The one Store contract, run against every Store the project has.
import { MemoryStore } from '../../../test/support/memory-store.js';
import { withItemListCache } from './sqlite/item-list-cache.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import { describeStoreContract } from './store.contract.js';

describeStoreContract('memory', () => new MemoryStore());
describeStoreContract('sqlite', () => openSqliteStore(':memory:'));
// What the app really runs: SQLite behind the item-list cache.
describeStoreContract('sqlite with the item-list cache', () => withItemListCache(openSqliteStore(':memory:')));
