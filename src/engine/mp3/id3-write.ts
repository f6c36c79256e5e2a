// The output's ID3v2.3 tag: version 2.3 because every player reads it (2.4 support is patchy).

export interface Id3Text {
  title?: string;
  artist?: string;
  album?: string;
}

const IDS: [keyof Id3Text, string][] = [
  ['title', 'TIT2'],
  ['artist', 'TPE1'],
  ['album', 'TALB'],
];

/** Text frame body: ISO-8859-1 when every character fits, else UTF-16 with a byte-order mark. */
export function encodeText(text: string): Buffer {
  // eslint-disable-next-line no-control-regex
  if (/^[\u0000-\u00ff]*$/.test(text)) return Buffer.concat([Buffer.from([0]), Buffer.from(text, 'latin1')]);
  return Buffer.concat([Buffer.from([1, 0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
}

function synchsafe(n: number): Buffer {
  return Buffer.from([(n >>> 21) & 0x7f, (n >>> 14) & 0x7f, (n >>> 7) & 0x7f, n & 0x7f]);
}

/** An ID3v2.3 tag holding the given texts; an empty buffer when there is nothing to say. */
export function buildId3v23(tags: Id3Text): Buffer {
  const frames: Buffer[] = [];
  for (const [key, id] of IDS) {
    const value = tags[key]?.replace(/\0/g, '').trim();
    if (!value) continue;
    const body = encodeText(value);
    const head = Buffer.alloc(10);
    head.write(id, 0, 'latin1');
    head.writeUInt32BE(body.length, 4);
    frames.push(head, body);
  }
  if (frames.length === 0) return Buffer.alloc(0);
  const body = Buffer.concat(frames);
  if (body.length >= 1 << 28) throw new Error('ID3 tag too large');
  return Buffer.concat([Buffer.from('ID3\x03\x00\x00', 'latin1'), synchsafe(body.length), body]);
}
