import { describe, expect, it } from 'vitest';
import { HELP, parseArgs } from './args.js';

describe('the command line arguments', () => {
  it('reads -o, inputs in order, --json, --title and --quiet', () => {
    expect(parseArgs(['-o', 'out.mp3', 'a.mp3', '--json', 'b.wav', '--title', 'My book', '--quiet'])).toEqual({
      kind: 'run',
      args: { output: 'out.mp3', inputs: ['a.mp3', 'b.wav'], json: true, quiet: true, title: 'My book' },
    });
  });

  it('accepts --output=OUT and --title=T', () => {
    const p = parseArgs(['--output=x y.mp3', '--title=A=B', 'in.mp3']);
    expect(p).toMatchObject({ kind: 'run', args: { output: 'x y.mp3', title: 'A=B', inputs: ['in.mp3'] } });
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
    for (const word of ['-o', '--output', '--json', '--title', '--quiet', '--help', '--', 'transcoded', '0 ', '1 ', '2 ']) {
      expect(HELP).toContain(word);
    }
  });
});
