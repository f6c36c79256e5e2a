// Title, artist and album from an ID3v2.2/2.3/2.4 tag (the probe reports them; the join reuses the title).
import { synchsafe, unsynchronise } from './tags.js';

const NAMES: Record<string, string> = {
  TT2: 'title',
  TP1: 'artist',
  TAL: 'album',
  TIT2: 'title',
  TPE1: 'artist',
  TALB: 'album',
};

function swap16(b: Uint8Array): Buffer {
  const out = Buffer.from(b.subarray(0, b.length & ~1));
  return out.swap16();
}

/** Decode an ID3v2 text frame body: encoding byte, then text; the first of several values. */
export function decodeTextFrame(body: Uint8Array): string {
  if (body.length < 1) return '';
  const enc = body[0];
  let t = body.subarray(1);
  let s: string;
  if (enc === 1 || enc === 2) {
    let le = enc === 1; // UTF-16 with BOM: little-endian unless the BOM says otherwise
    if (t.length >= 2 && ((t[0] === 0xfe && t[1] === 0xff) || (t[0] === 0xff && t[1] === 0xfe))) {
      le = t[0] === 0xff;
      t = t.subarray(2);
    }
    let end = t.length & ~1;
    for (let i = 0; i + 1 < t.length; i += 2)
      if (t[i] === 0 && t[i + 1] === 0) {
        end = i;
        break;
      }
    t = t.subarray(0, end);
    s = le ? Buffer.from(t).toString('utf16le') : swap16(t).toString('utf16le');
  } else {
    const z = t.indexOf(0);
    if (z >= 0) t = t.subarray(0, z);
    s = Buffer.from(t).toString(enc === 3 ? 'utf8' : 'latin1');
  }
  return s.replace(/^\uFEFF/, '').trim();
}

/** Parse the text frames we report from a whole ID3v2 tag (`tag` starts at 'ID3'; may be cut short). */
export function readId3v2Text(tag: Uint8Array, seen?: Set<string>): Record<string, string> {
  const out: Record<string, string> = {};
  if (tag.length < 10) return out;
  const major = tag[3];
  const flags = tag[5];
  const size = synchsafe(tag, 6);
  if (size < 0 || major < 2 || major > 4) return out;
  if (major === 2 && flags & 0x40) return out; // v2.2 whole-tag compression
  let body = tag.subarray(10, Math.min(tag.length, 10 + size));
  // v2.2/2.3 unsynchronise the whole tag; v2.4 marks it per frame.
  if (major < 4 && flags & 0x80) body = unsynchronise(body);
  let p = 0;
  if (flags & 0x40) {
    if (major === 3) p = 4 + ((body[0] << 24) | (body[1] << 16) | (body[2] << 8) | body[3]);
    else p = synchsafe(body, 0);
    if (p < 0 || p > body.length) return out;
  }
  const idLen = major === 2 ? 3 : 4;
  const headLen = major === 2 ? 6 : 10;
  while (p + headLen <= body.length) {
    if (body[p] === 0) break; // padding
    const id = Buffer.from(body.subarray(p, p + idLen)).toString('latin1');
    if (!/^[A-Z0-9]+$/.test(id)) break;
    let len: number;
    if (major === 2) len = (body[p + 3] << 16) | (body[p + 4] << 8) | body[p + 5];
    else if (major === 3)
      len = ((body[p + 4] << 24) | (body[p + 5] << 16) | (body[p + 6] << 8) | body[p + 7]) >>> 0;
    else len = synchsafe(body, p + 4);
    if (len < 0) break;
    const fmt = major === 2 ? 0 : body[p + 9];
    let data = body.subarray(p + headLen, Math.min(body.length, p + headLen + len));
    p += headLen + len;
    seen?.add(id);
    const name = NAMES[id];
    if (!name || name in out) continue;
    if (major === 3 && fmt & 0xc0) continue; // compressed or encrypted
    if (major === 4) {
      if (fmt & 0x0c) continue; // compressed or encrypted
      if (fmt & 0x40) data = data.subarray(1); // group id
      if (fmt & 0x01) data = data.subarray(4); // data length indicator
      if (fmt & 0x02 || flags & 0x80) data = unsynchronise(data);
    }
    if (major === 3 && fmt & 0x20) data = data.subarray(1); // group id
    const text = decodeTextFrame(data);
    if (text) out[name] = text;
  }
  return out;
}
