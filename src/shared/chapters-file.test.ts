import { describe, expect, it } from 'vitest';
import { chaptersFileText, parseChaptersFile, parseTimestamp } from './chapters-file.js';

describe('a chapters file', () => {
  it('is UTF-8 text, or the first line that is not is named (a file saved as Latin-1)', () => {
    const utf8 = Buffer.from('\uFEFF0:00 Caf\u00e9\n1:00 \u{1F3B5}\n');
    expect(chaptersFileText(utf8)).toEqual({ ok: true, text: '0:00 Caf\u00e9\n1:00 \u{1F3B5}\n' });
    const latin1 = Buffer.from('0:00 One\r\n1:00 Caf\u00e9\n', 'latin1');
    expect(chaptersFileText(latin1)).toEqual({
      ok: false,
      line: 2,
      message: 'is not UTF-8 text (save the file as UTF-8)',
    });
  });

  it('reads START TITLE lines, skipping comments and empty lines', () => {
    const text = '# my book\n\n0:00 Opening\n\t62.25   Part Two  \r\n1:02:03.5 Three # not a comment\n';
    expect(parseChaptersFile(text)).toEqual({
      ok: true,
      chapters: [
        { start: 0, title: 'Opening', line: 3 },
        { start: 62.25, title: 'Part Two', line: 4 },
        { start: 3723.5, title: 'Three # not a comment', line: 5 },
      ],
    });
  });

  it('names the line it cannot read', () => {
    expect(parseChaptersFile('0:00 A\nsoon B\n')).toMatchObject({ ok: false, line: 2 });
    expect(parseChaptersFile('0:00 A\n1:00\n')).toMatchObject({ ok: false, line: 2 });
    expect(parseChaptersFile('0:00 A\n1:75 B\n')).toMatchObject({ ok: false, line: 2 });
    expect(parseChaptersFile('1:00 A\n0:30 B\n')).toMatchObject({ ok: false, line: 2 });
    expect(parseChaptersFile('0:00 A\x01B\n')).toMatchObject({ ok: false, line: 1 });
    expect(parseChaptersFile('# nothing\n')).toMatchObject({ ok: false });
  });

  it('reads timestamps as seconds, minutes and hours', () => {
    expect(parseTimestamp('12.5')).toBe(12.5);
    expect(parseTimestamp('1:02')).toBe(62);
    expect(parseTimestamp('1:02:03.5')).toBe(3723.5);
    expect(parseTimestamp('1:2:3:4')).toBeUndefined();
    expect(parseTimestamp('-1')).toBeUndefined();
  });
});
