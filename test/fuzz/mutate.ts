// Seeded mutations of a valid audio file, the way files get damaged: flipped bits, a cut tail,
// junk written in, a stretch duplicated. Pure: the same seed gives the same bytes, so a finding
// can be replayed from its seed alone.

/** mulberry32: small, fast and good enough to pick positions. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rng = () => number;
const int = (rng: Rng, below: number): number => Math.floor(rng() * below);

export type MutationKind = 'bitflip' | 'truncate' | 'junk' | 'duplicate';
export const MUTATIONS: readonly MutationKind[] = ['bitflip', 'truncate', 'junk', 'duplicate'];

export interface Mutated {
  bytes: Buffer;
  /** What was done, in order, e.g. "junk 37 bytes at 12034". */
  ops: string[];
}

function bitflip(b: Buffer, rng: Rng): [Buffer, string] {
  const out = Buffer.from(b);
  const flips = 1 + int(rng, 16);
  for (let i = 0; i < flips; i++) out[int(rng, out.length)] ^= 1 << int(rng, 8);
  return [out, `bitflip ${flips} bits`];
}

function truncate(b: Buffer, rng: Rng): [Buffer, string] {
  const at = int(rng, b.length);
  return [b.subarray(0, at), `truncate at ${at} of ${b.length}`];
}

function junk(b: Buffer, rng: Rng): [Buffer, string] {
  const at = int(rng, b.length + 1);
  const n = 1 + int(rng, rng() < 0.8 ? 64 : 4096);
  const bytes = Buffer.alloc(n);
  for (let i = 0; i < n; i++) bytes[i] = int(rng, 256);
  return [Buffer.concat([b.subarray(0, at), bytes, b.subarray(at)]), `junk ${n} bytes at ${at}`];
}

function duplicate(b: Buffer, rng: Rng): [Buffer, string] {
  const from = int(rng, b.length);
  const n = Math.min(b.length - from, 1 + int(rng, 8192));
  const to = int(rng, b.length + 1);
  const chunk = b.subarray(from, from + n);
  return [
    Buffer.concat([b.subarray(0, to), chunk, b.subarray(to)]),
    `duplicate ${n} bytes from ${from} to ${to}`,
  ];
}

const APPLY: Record<MutationKind, (b: Buffer, rng: Rng) => [Buffer, string]> = {
  bitflip,
  truncate,
  junk,
  duplicate,
};

/** One to three mutations of `source`, chosen by `rng`; a file is never mutated to nothing. */
export function mutate(source: Buffer, rng: Rng): Mutated {
  let bytes = source;
  const ops: string[] = [];
  const count = 1 + int(rng, 3);
  for (let i = 0; i < count && bytes.length > 0; i++) {
    const kind = MUTATIONS[int(rng, MUTATIONS.length)];
    const [next, op] = APPLY[kind](bytes, rng);
    bytes = next;
    ops.push(op);
  }
  return { bytes: Buffer.from(bytes), ops };
}
