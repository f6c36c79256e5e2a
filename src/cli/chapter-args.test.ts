import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.js';

const run = (...extra: string[]) => parseArgs(['-o', 'book.m4b', 'a.mp3', ...extra]);

describe('the chapter-finding and parts options', () => {
  it('reads each, negative levels and decimals included', () => {
    const parsed = run(
      '--chapters-at',
      'silences',
      '--silence-min',
      '2.5',
      '--silence-db=-50',
      '--chapter-min',
      '60',
      '--chapter-max',
      '1800',
      '--split',
      'chapters',
    );
    expect(parsed).toMatchObject({
      kind: 'run',
      args: {
        chapterOptions: {
          chaptersAt: 'silences',
          silenceMin: 2.5,
          silenceDb: -50,
          chapterMin: 60,
          chapterMax: 1800,
          split: 'chapters',
        },
      },
    });
    expect(run('--split', '7200')).toMatchObject({ kind: 'run', args: { chapterOptions: { split: 7200 } } });
  });

  it('gives none when none is asked', () => {
    const parsed = run();
    expect(parsed.kind === 'run' && parsed.args.chapterOptions).toBeUndefined();
  });

  it.each([
    [['--chapters-at', 'pauses'], '--chapters-at must be one of files, silences, both'],
    [['--silence-min', '0'], '--silence-min must be a number of seconds from 0.1 to 30'],
    [['--silence-db', '-5'], '--silence-db must be a level in dBFS from -90 to -10'],
    [['--silence-db', 'loud'], '--silence-db must be a number, not "loud"'],
    [['--chapter-max', '0'], '--chapter-max must be'],
    [['--split', 'parts'], '--split must be a number, not "parts"'],
    [['--split', '5'], '--split must be "chapters" or a number of seconds from 10'],
  ])('refuses %j as a usage error naming it', (extra, said) => {
    const parsed = run(...extra);
    expect(parsed.kind).toBe('usage');
    expect(parsed.kind === 'usage' && parsed.message).toContain(said);
  });
});
