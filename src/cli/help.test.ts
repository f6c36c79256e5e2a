import { describe, expect, it } from 'vitest';
import { HELP, OPTION_NAMES, USAGE } from './args.js';

// The short spellings are named in --help beside their long ones; the usage line gives the long.
const SHORT_ALIASES: Record<string, string> = { '-q': '--quiet', '-h': '--help', '--output': '-o' };

describe('usage line and --help', () => {
  it.each(OPTION_NAMES.filter((n) => !(n in SHORT_ALIASES)))('the usage line names %s', (name) => {
    expect(USAGE).toMatch(new RegExp(`[[ |]${name.replace(/-/g, '\\-')}[\\] ]`));
  });

  it.each(OPTION_NAMES)('--help explains %s', (name) => {
    expect(HELP).toMatch(new RegExp(`(^|[ ,])${name.replace(/-/g, '\\-')}([ ,=]|$)`, 'm'));
  });
});
