import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.js';

describe('parsing the sound options on the command line', () => {
  it('passes them on to the merge', () => {
    const r = parseArgs([
      '-o',
      'out.mp3',
      'a.mp3',
      '--loudness',
      '-16',
      '--gap',
      '2',
      '--trim-silence',
      'b.wav',
      '--gapless',
    ]);
    expect(r).toMatchObject({
      kind: 'run',
      args: {
        inputs: ['a.mp3', 'b.wav'],
        sound: { loudness: -16, gap: 2, trimSilence: true, gapless: true },
      },
    });
    expect(parseArgs(['-o', 'o.flac', 'a', '--crossfade=1.5'])).toMatchObject({
      args: { sound: { crossfade: 1.5 } },
    });
    expect(parseArgs(['-o', 'o.mp3', 'a'])).not.toHaveProperty('args.sound');
  });

  it('refuses a gap with a crossfade, and negative or absurd values, naming the option', () => {
    expect(parseArgs(['-o', 'o.mp3', 'a', '--gap', '1', '--crossfade', '1'])).toEqual({
      kind: 'usage',
      message: '--gap and --crossfade cannot be used together',
    });
    expect(parseArgs(['-o', 'o.mp3', 'a', '--gap', '-0.5'])).toEqual({
      kind: 'usage',
      message: '--gap must be a number of seconds from 0 to 60',
    });
    expect(parseArgs(['-o', 'o.mp3', 'a', '--crossfade', '86400'])).toEqual({
      kind: 'usage',
      message: '--crossfade must be a number of seconds from 0 to 30',
    });
    expect(parseArgs(['-o', 'o.mp3', 'a', '--loudness', 'loud'])).toEqual({
      kind: 'usage',
      message: '--loudness must be a number, not "loud"',
    });
    expect(parseArgs(['-o', 'o.mp3', 'a', '--loudness', '10'])).toEqual({
      kind: 'usage',
      message: '--loudness must be a loudness in LUFS from -70 to -5',
    });
    expect(parseArgs(['-o', 'o.mp3', 'a', '--gap'])).toEqual({
      kind: 'usage',
      message: '--gap needs a value',
    });
  });
});
