// One pass over a scanned file's audio region in 1 MiB chunks, each chunk's frames checked by a
// FrameWalker: for the passes that copy or index a part's frames whole (sound-parts.ts,
// frame-index.ts). The join keeps its own loop, which overlaps each chunk's write with the next read.
import { closeSync, openSync } from 'node:fs';
import { AbortError } from '../errors.js';
import { nextTurn, readFullSync } from '../io/sync-io.js';
import type { Mp3Scan } from './scan.js';
import type { FrameWalker } from './walk.js';

const CHUNK = 1 << 20;

/**
 * Read `file` from scan.audioStart to scan.audioEnd; `visit` gets each chunk's buffer, the file
 * offset of its first byte, and its runs of whole checked frames as [start, end, start, end...]
 * in the buffer (valid only during the call). A turn of the event loop between chunks.
 */
export async function walkAudioChunks(
  file: string,
  scan: Mp3Scan,
  walker: FrameWalker,
  visit: (buf: Buffer, base: number, runs: number[]) => void,
  signal?: AbortSignal,
): Promise<void> {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK + 8192);
    let len = 0; // a carried partial frame, then the new chunk
    let base = scan.audioStart;
    for (let filePos = scan.audioStart; ;) {
      if (signal?.aborted) throw new AbortError();
      const n = readFullSync(fd, buf, len, Math.min(CHUNK, scan.audioEnd - filePos), filePos);
      filePos += n;
      len += n;
      const final = filePos >= scan.audioEnd || n === 0;
      const runs: number[] = [];
      const consumed = walker.walk(buf, 0, len, final, (s, e) => void runs.push(s, e));
      visit(buf, base, runs);
      if (final) return;
      buf.copy(buf, 0, consumed, len);
      len -= consumed;
      base += consumed;
      await nextTurn();
    }
  } finally {
    closeSync(fd);
  }
}
