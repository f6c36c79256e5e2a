// Real SQLite files for the start-up check: a sound one with many pages, and one page damaged.
import { open } from 'node:fs/promises';
import { openSqliteStore } from '../../src/server/data/sqlite/sqlite-store.js';
import { noise } from './mp3-synth.js';

/** A real database with enough sessions to span many pages, closed (so the WAL is folded in). */
export async function makeDatabase(file: string, sessions = 400): Promise<void> {
  const store = openSqliteStore(file);
  for (let i = 0; i < sessions; i++)
    await store.createSession(
      `hash-${i}-${'x'.repeat(40)}`,
      `sid-${i}`,
      `csrf-${i}-${'y'.repeat(30)}`,
      1000 + i,
    );
  await store.close();
}

/** Overwrite one whole page, not the first, with noise: what a bad disk sector does. */
export async function damagePage(file: string): Promise<void> {
  const fh = await open(file, 'r+');
  try {
    const head = Buffer.alloc(100);
    await fh.read(head, 0, 100, 0);
    const pageSize = head.readUInt16BE(16) || 65536;
    const pages = head.readUInt32BE(28);
    const victim = Math.floor(pages / 2);
    await fh.write(noise(pageSize, 7), 0, pageSize, victim * pageSize);
  } finally {
    await fh.close();
  }
}
