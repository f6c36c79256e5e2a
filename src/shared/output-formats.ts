// The output formats, shared by the engine (what it writes), the server (what it accepts) and the
// widget (what a host offers in data-formats).

export const OUTPUT_FORMATS = ['mp3', 'm4b', 'm4a', 'opus', 'ogg', 'flac', 'wav'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export function isOutputFormat(name: string): name is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(name);
}

/** A host element's data-formats ("mp3 m4b", "mp3,flac"): the known formats, in order, once; MP3 when none. */
export function parseFormats(attr: string | undefined): OutputFormat[] {
  const named = (attr ?? '')
    .toLowerCase()
    .split(/[\s,]+/)
    .filter(isOutputFormat);
  const unique = [...new Set(named)];
  return unique.length > 0 ? unique : ['mp3'];
}
