import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HELP, OPTION_NAMES, USAGE } from './args.js';

// The short spellings are named in --help beside their long ones; the usage line gives the long.
const SHORT_ALIASES: Record<string, string> = {
  '-q': '--quiet',
  '-h': '--help',
  '-n': '--no-clobber',
  '--output': '-o',
};

describe('usage line and --help', () => {
  it.each(OPTION_NAMES.filter((n) => !(n in SHORT_ALIASES)))('the usage line names %s', (name) => {
    expect(USAGE).toMatch(new RegExp(`[[ |]${name.replace(/-/g, '\\-')}[\\] ]`));
  });

  it.each(OPTION_NAMES)('--help explains %s', (name) => {
    expect(HELP).toMatch(new RegExp(`(^|[ ,])${name.replace(/-/g, '\\-')}([ ,=]|$)`, 'm'));
  });

  it('says what the command-line reference says about what a crossfade decodes', () => {
    // What the engine does (splicesFades): a fade between copied MP3s re-encodes only the frames
    // around it; any other output, or an input that is not copied, has every input decoded.
    const flat = (t: string) => t.replace(/[`|]/g, '').replace(/\s+/g, ' ').toLowerCase();
    const help = flat(HELP);
    const reference = flat(readFileSync('docs/reference/command-line.md', 'utf8'));
    const claim =
      'when the output is an mp3 that copies every input (mp3s of its rate and channels), without --gapless or --trim-silence, only the frames around each fade are decoded and re-encoded';
    expect(help).toContain(claim);
    expect(reference).toContain(claim);
    expect(help).toMatch(/byte for byte\); otherwise every input is decoded/);
    expect(reference).toMatch(/otherwise every input is decoded/);
    expect(help).not.toMatch(/crossfade[^.]*; every input is decoded/);
  });
});
