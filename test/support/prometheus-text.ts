// A strict reader of the Prometheus text exposition format (0.0.4), as a Prometheus server reads a
// scrape: every line is a comment, a HELP or TYPE line, or a sample `name{label="value",...} number`
// with the format's escapes; anything else throws, naming the line. Written here because the npm
// parsers at hand drop the labels of histograms.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** Each family's TYPE, by name. */
  types: Map<string, string>;
  samples: Sample[];
  /** The value of the one sample of this name whose labels include these; undefined when none. */
  value(name: string, labels?: Record<string, string>): number | undefined;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

function parseNumber(text: string, line: string): number {
  // As Prometheus reads them (Go's ParseFloat): Inf and NaN in any case.
  const word = text.toLowerCase();
  if (word === '+inf' || word === 'inf') return Number.POSITIVE_INFINITY;
  if (word === '-inf') return Number.NEGATIVE_INFINITY;
  if (word === 'nan') return Number.NaN;
  const n = Number(text);
  if (text === '' || Number.isNaN(n)) throw new Error(`not a number in: ${line}`);
  return n;
}

/** `{a="1",b="x\"y"}` from position `at`; gives the labels and where they end. */
function parseLabels(line: string, at: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = at + 1;
  while (line[i] !== '}') {
    const name = NAME.exec(line.slice(i))?.[0];
    if (!name || line[i + name.length] !== '=' || line[i + name.length + 1] !== '"')
      throw new Error(`bad label in: ${line}`);
    i += name.length + 2;
    let value = '';
    for (; line[i] !== '"'; i++) {
      if (i >= line.length) throw new Error(`unterminated label value in: ${line}`);
      if (line[i] === '\\') {
        i++;
        value += line[i] === 'n' ? '\n' : line[i];
      } else value += line[i];
    }
    labels[name] = value;
    i++;
    if (line[i] === ',') i++;
    else if (line[i] !== '}') throw new Error(`bad label list in: ${line}`);
  }
  return { labels, end: i + 1 };
}

function parseSample(line: string): Sample {
  const name = NAME.exec(line)?.[0];
  if (!name) throw new Error(`bad metric name in: ${line}`);
  let rest = name.length;
  let labels: Record<string, string> = {};
  if (line[rest] === '{') ({ labels, end: rest } = parseLabels(line, rest));
  const fields = line.slice(rest).trim().split(/\s+/);
  if (fields.length < 1 || fields.length > 2) throw new Error(`bad sample: ${line}`);
  return { name, labels, value: parseNumber(fields[0], line) };
}

export function parsePrometheusText(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*)(?: (.*))?$/.exec(line);
      if (m?.[1] === 'TYPE') {
        if (!TYPES.has(m[3] ?? '')) throw new Error(`bad TYPE: ${line}`);
        if (types.has(m[2])) throw new Error(`second TYPE for ${m[2]}`);
        types.set(m[2], m[3] as string);
      }
      continue;
    }
    samples.push(parseSample(line));
  }
  return {
    types,
    samples,
    value(name, labels = {}) {
      return samples.find(
        (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      )?.value;
    },
  };
}
