// `npm run soak -- --people N --minutes M`: the arguments, pure. Bounded: a soak is a few
// hundred people for minutes on loopback, not a load generator for any host.

export interface SoakArgs {
  people: number;
  minutes: number;
}

export const SOAK_DEFAULTS: SoakArgs = { people: 200, minutes: 5 };
const LIMITS = { people: 2000, minutes: 60 };

export function parseSoakArgs(argv: readonly string[]): SoakArgs {
  const out = { ...SOAK_DEFAULTS };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const key = flag === '--people' ? 'people' : flag === '--minutes' ? 'minutes' : undefined;
    if (!key) throw new Error(`unknown argument ${flag}: use --people N --minutes M`);
    const value = Number(argv[++i]);
    if (!Number.isFinite(value) || value <= 0 || value > LIMITS[key])
      throw new Error(`${flag} wants a number above 0 and at most ${LIMITS[key]}`);
    out[key] = key === 'people' ? Math.floor(value) : value;
  }
  return out;
}
