// An ObjectStore in memory, counting the reads it serves: for tests of what goes to the bucket
// and what does not. The real one runs against s3rver in the scaled suite.
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ObjectStore } from '../../src/server/files/s3/s3-objects.js';

export interface MemoryObjects extends ObjectStore {
  objects: Map<string, Buffer>;
  /** Keys read (GET), in order. */
  reads: string[];
}

export function memoryObjects(): MemoryObjects {
  const objects = new Map<string, Buffer>();
  const reads: string[] = [];
  return {
    objects,
    reads,
    async putFile(key, localPath, opts) {
      const bytes = await readFile(localPath);
      opts?.whenRead?.();
      objects.set(key, bytes);
      return { size: bytes.length };
    },
    async read(key, range) {
      reads.push(key);
      const bytes = objects.get(key);
      if (!bytes) return undefined;
      return {
        body: Readable.from([range ? bytes.subarray(range.start, range.end + 1) : bytes]),
        size: bytes.length,
        modifiedAt: new Date(0),
      };
    },
    async head(key) {
      const bytes = objects.get(key);
      return bytes && { size: bytes.length, modifiedAt: new Date(0) };
    },
    async delete(key) {
      objects.delete(key);
    },
    async list(prefix) {
      return [...objects.keys()].filter((k) => k.startsWith(prefix));
    },
    async deletePrefix(prefix) {
      const keys = [...objects.keys()].filter((k) => k.startsWith(prefix));
      keys.forEach((k) => objects.delete(k));
      return keys.length;
    },
    async ping() {},
    close() {},
  };
}
