// ISO base media (MP4) boxes: find them in a buffer, and build them. Pure functions over bytes.

export interface Box {
  type: string;
  /** Offset of the payload (after the size and type, and the 64-bit size if any). */
  start: number;
  end: number;
}

/** The boxes laid end to end in buf[from, to); stops at a box that does not fit. */
export function childBoxes(buf: Buffer, from: number, to: number): Box[] {
  const out: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = buf.readUInt32BE(at);
    let head = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(buf.readBigUInt64BE(at + 8));
      head = 16;
    } else if (size === 0) size = to - at;
    if (size < head || at + size > to) break;
    out.push({ type: buf.toString('latin1', at + 4, at + 8), start: at + head, end: at + size });
    at += size;
  }
  return out;
}

/** The first child of `parent` with this type, or undefined. */
export function child(buf: Buffer, parent: Box, type: string, skip = 0): Box | undefined {
  return childBoxes(buf, parent.start + skip, parent.end).find((b) => b.type === type);
}

/** Follow a path of box types from `parent` (first match at each step). */
export function path(buf: Buffer, parent: Box, ...types: string[]): Box | undefined {
  let at: Box | undefined = parent;
  for (const t of types) at = at && child(buf, at, t);
  return at;
}

export const u8 = (n: number) => Buffer.from([n & 255]);
export function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n & 0xffff);
  return b;
}
export function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}
export function u64(n: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(Math.max(0, Math.round(n))));
  return b;
}

export function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

/** A "full box": version and flags ahead of the payload. */
export function fullBox(type: string, version: number, flags: number, ...payload: Buffer[]): Buffer {
  return box(type, u32(((version & 255) << 24) | (flags & 0xffffff)), ...payload);
}
