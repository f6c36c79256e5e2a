import { describe, expect, it } from 'vitest';
import { HELP, parseArgs } from './args.js';

describe('the command line arguments', () => {
  it('reads -o, inputs in order, --json, --title and --quiet', () => {
    expect(parseArgs(['-o', 'out.mp3', 'a.mp3', '--json', 'b.wav', '--title', 'My book', '--quiet'])).toEqual(
      {
        kind: 'run',
        args: {
          output: 'out.mp3',
          inputs: ['a.mp3', 'b.wav'],
          json: true,
          quiet: true,
          noClobber: false,
          title: 'My book',
          format: 'mp3',
          chapters: true,
        },
      },
    );
  });

  it('reads -n and --no-clobber', () => {
    expect(parseArgs(['-n', '-o', 'o.mp3', 'a.mp3'])).toMatchObject({
      kind: 'run',
      args: { noClobber: true },
    });
    expect(parseArgs(['--no-clobber', '-o', 'o.mp3', 'a.mp3'])).toMatchObject({
      kind: 'run',
      args: { noClobber: true },
    });
  });

  it('accepts --output=OUT and --title=T', () => {
    const p = parseArgs(['--output=x y.mp3', '--title=A=B', 'in.mp3']);
    expect(p).toMatchObject({ kind: 'run', args: { output: 'x y.mp3', title: 'A=B', inputs: ['in.mp3'] } });
  });

  it("reads the book flags: inputs' own chapters, channels, rate and details", () => {
    const p = parseArgs([
      '-o',
      'book.m4b',
      '--input-chapters',
      'flatten',
      '--channels',
      '1',
      '--sample-rate',
      '22050',
      '--narrator',
      'N. Reader',
      '--description',
      'Two\nlines',
      'a.m4b',
    ]);
    expect(p).toMatchObject({
      kind: 'run',
      args: { inputChapters: 'flatten', channels: 1, sampleRate: 22050, inputs: ['a.m4b'] },
    });
    expect(parseArgs(['-o', 'b.mp3', '--channels', '3', 'a.mp3'])).toMatchObject({ kind: 'usage' });
    expect(parseArgs(['-o', 'b.mp3', '--sample-rate', '7999', 'a.mp3'])).toMatchObject({ kind: 'usage' });
    // Whole numbers in decimal only: what Number() also reads is not what a person meant.
    for (const [flag, value] of [
      ['--sample-rate', '0x1F40'],
      ['--sample-rate', '8e3'],
      ['--sample-rate', ' 8000'],
      ['--channels', '0b10'],
      ['--bitrate', '1e2'],
      ['--bitrate', '0x80k'],
    ])
      expect(parseArgs(['-o', 'b.mp3', flag, value, 'a.mp3']), `${flag} ${value}`).toMatchObject({
        kind: 'usage',
      });
  });

  it('takes everything after -- as an input', () => {
    const p = parseArgs(['-o', 'o.mp3', '--', '--json', '-a.mp3']);
    expect(p).toMatchObject({ kind: 'run', args: { inputs: ['--json', '-a.mp3'], json: false } });
  });

  it.each([
    [['a.mp3'], /no output/],
    [['-o', 'out.mp3'], /no inputs/],
    [['-o'], /needs a file name/],
    [['-o', 'o.mp3', '--bogus', 'a.mp3'], /unknown option --bogus/],
    [['-o', 'o.mp3', '-o', 'p.mp3', 'a.mp3'], /only one output/],
  ])('refuses %j', (argv, message) => {
    const p = parseArgs(argv);
    expect(p.kind).toBe('usage');
    if (p.kind === 'usage') expect(p.message).toMatch(message);
  });

  it('answers --help wherever it appears', () => {
    expect(parseArgs(['-o', 'o.mp3', '--help'])).toEqual({ kind: 'help' });
    expect(parseArgs(['-h'])).toEqual({ kind: 'help' });
  });

  it('documents every option and exit code in --help', () => {
    for (const word of [
      '-o',
      '--output',
      '--json',
      '--title',
      '--quiet',
      '--help',
      '--',
      'transcoded',
      '0 ',
      '1 ',
      '2 ',
    ]) {
      expect(HELP).toContain(word);
    }
  });

  it('takes the format from the extension, and --format wins over it', () => {
    expect(parseArgs(['-o', 'book.M4B', 'a.mp3'])).toMatchObject({ args: { format: 'm4b' } });
    expect(parseArgs(['-o', 'x.flac', '--format', 'wav', 'a.mp3'])).toMatchObject({
      args: { format: 'wav' },
    });
    expect(parseArgs(['-o', 'x.audio', '--format=opus', 'a.mp3'])).toMatchObject({
      args: { format: 'opus' },
    });
  });

  it('reads the chapter, tag, cover and bit rate options', () => {
    const p = parseArgs([
      '-o',
      'b.m4b',
      '--no-chapters',
      '--chapter-titles',
      'files',
      '--artist',
      'A',
      '--album=B',
      '--cover',
      'c.jpg',
      '--bitrate',
      '96',
      'a.mp3',
    ]);
    expect(p).toEqual({
      kind: 'run',
      args: {
        output: 'b.m4b',
        inputs: ['a.mp3'],
        json: false,
        quiet: false,
        noClobber: false,
        format: 'm4b',
        chapters: false,
        chapterTitles: 'files',
        artist: 'A',
        album: 'B',
        cover: 'c.jpg',
        bitRateKbps: 96,
      },
    });
  });

  it.each([
    [['-o', 'x.wma', 'a.mp3'], /extension \.wma names no format/],
    [['-o', 'noext', 'a.mp3'], /no extension names no format/],
    [
      ['-o', 'x.mp3', '--format', 'aiff', 'a.mp3'],
      /--format must be one of mp3, m4b, m4a, opus, ogg, flac, wav/,
    ],
    [['-o', 'x.mp3', '--bitrate', 'fast', 'a.mp3'], /--bitrate must be a whole number/],
    [['-o', 'x.mp3', '--bitrate', '4', 'a.mp3'], /from 8 to 320/],
    [['-o', 'x.mp3', '--chapter-titles', 'names', 'a.mp3'], /tags or files/],
    [['-o', 'x.mp3', 'a.mp3', '--artist'], /--artist needs a value/],
  ])('refuses %j as a usage error', (argv, message) => {
    const p = parseArgs(argv);
    expect(p.kind).toBe('usage');
    if (p.kind === 'usage') expect(p.message).toMatch(message);
  });

  it('documents every format, option and bit rate default in --help', () => {
    for (const word of [
      '--format',
      '--bitrate',
      '--no-chapters',
      '--chapter-titles',
      '--artist',
      '--album',
      '--cover',
      'm4b',
      'opus',
      'flac',
      'wav',
      'mp3 128 (mono 64)',
      'opus 96',
      'at most 255',
    ]) {
      expect(HELP).toContain(word);
    }
  });
});
