// The command line and the server take the same sound options by the same rules: the same values
// are refused, with the same bounds in the message, and the API reference states those bounds.
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../src/cli/args.js';
import { flagOf } from '../src/cli/sound-args.js';
import { checkMergeOptions } from '../src/server/jobs/merge-options.js';
import {
  SOUND_OPTION_NAMES,
  SOUND_RULES,
  type SoundOptionName,
  type SoundRule,
} from '../src/shared/sound-options.js';
import openapi from '../docs/openapi.json' with { type: 'json' };

const RANGED = SOUND_OPTION_NAMES.flatMap((option) => {
  const rule: SoundRule = SOUND_RULES[option];
  return rule.kind === 'range' ? [{ option, ...rule }] : [];
});

function cli(option: SoundOptionName, value: number) {
  const r = parseArgs(['-o', 'out.flac', 'a.mp3', flagOf(option), String(value)]);
  return r.kind === 'usage' ? { ok: false, message: r.message } : { ok: true };
}

const server = (option: string, value: number) => checkMergeOptions({ [option]: value });

/** mergemp3's options as the API reference states them. */
const documented = (
  openapi.paths['/app/merge/mergemp3'].post.requestBody.content['application/json'].schema.properties
    .options as { properties: Record<string, unknown> }
).properties;

describe('the sound options, on the command line and on the server', () => {
  it('covers every ranged option with a range', () => {
    expect(RANGED.map((r) => r.option)).toEqual(['loudness', 'gap', 'crossfade']);
  });

  describe.each(RANGED)('$option ($min to $max)', ({ option, min, max, what }) => {
    const bounds = `from ${min} to ${max}`;

    it.each([min, max, (min + max) / 2])('both take %d', (value) => {
      expect(cli(option, value)).toEqual({ ok: true });
      expect(server(option, value)).toMatchObject({ ok: true });
    });

    it.each([min - 0.5, max + 0.5, min - 1000, max + 1000])(
      'both refuse %d, with the same bounds',
      (value) => {
        const c = cli(option, value);
        const s = server(option, value);
        expect(c.ok).toBe(false);
        expect(s.ok).toBe(false);
        expect(c.message).toBe(`${flagOf(option)} must be ${what} ${bounds}`);
        expect(!s.ok && s.message).toBe(`Option "${option}" must be ${what} ${bounds}`);
      },
    );

    it('is documented with the same bounds in docs/openapi.json', () => {
      expect(documented[option]).toMatchObject({ type: 'number', minimum: min, maximum: max });
    });
  });

  it('both refuse a gap with a crossfade', () => {
    const c = parseArgs(['-o', 'o.mp3', 'a.mp3', '--gap', '1', '--crossfade', '1']);
    expect(c).toEqual({ kind: 'usage', message: '--gap and --crossfade cannot be used together' });
    expect(checkMergeOptions({ gap: 1, crossfade: 1 })).toEqual({
      ok: false,
      message: 'Options "gap" and "crossfade" cannot be used together',
    });
  });
});
