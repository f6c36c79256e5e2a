// Synchronous file I/O in chunks, with a turn of the event loop between chunks.
// On this class of machine each fs/promises call costs a thread-pool round trip; for the MP3 scan
// and join those round trips made the work 2 to 5 times slower than the copy itself. (The join
// still writes on the thread pool, but overlapped with reading the next chunk; see mp3/join.ts.) A chunk done
// synchronously blocks for about a millisecond, short enough for the server, which runs merges
// in-process, as long as callers yield (nextTurn) between chunks.
import { readSync, writeSync } from 'node:fs';

export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Read up to `len` bytes at file position `pos` into buf[at...]; fewer only at the end of the file. */
export function readFullSync(fd: number, buf: Buffer, at: number, len: number, pos: number): number {
  let got = 0;
  while (got < len) {
    const n = readSync(fd, buf, at + got, len - got, pos + got);
    if (n === 0) break;
    got += n;
  }
  return got;
}

export function writeFullSync(fd: number, buf: Buffer, at: number, len: number, pos: number): void {
  let put = 0;
  while (put < len) put += writeSync(fd, buf, at + put, len - put, pos + put);
}
