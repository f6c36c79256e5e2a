// Pure: the make button's text for the chosen format. The host's label stays the host's; only a
// format it names is swapped for the chosen one ("Make MP3" becomes "Make M4B").
import { OUTPUT_FORMATS, type OutputFormat } from '../../shared/output-formats.js';
import { texts } from '../texts.js';

const NAMED = new RegExp(`\\b(${OUTPUT_FORMATS.join('|')})\\b`, 'i');

/**
 * The label for `format`: the host's label with the format it names replaced by the chosen
 * one's name, or, when it names none, the host's label with the format beside it. `format` null
 * (no choice offered) keeps the host's label as it is.
 */
export function makeLabelFor(hostLabel: string, format: OutputFormat | null): string {
  if (format === null) return hostLabel;
  const name = texts.formatNames[format];
  if (NAMED.test(hostLabel)) return hostLabel.replace(NAMED, name);
  return texts.makeWithFormat(hostLabel, name);
}
