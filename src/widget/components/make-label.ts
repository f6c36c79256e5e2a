// Pure: what tells a person which format the make button makes. The button's text is the host's
// make label (`data-make-label`, docs/reference/widget.md), only its `{format}` filled in; when the
// label names another format than the one chosen ("Make MP3" with M4B picked), a hint beside the
// button says what will be made, and the button is described by it.
import { OUTPUT_FORMATS, type OutputFormat } from '../../shared/output-formats.js';
import { t } from '../i18n/locale.js';

const NAMED = new RegExp(`\\b(${OUTPUT_FORMATS.join('|')})\\b`, 'i');

/** The format a make label names, if any ("Make MP3" names mp3; "Merge" names none). */
export function formatNamedBy(label: string): OutputFormat | undefined {
  return NAMED.exec(label)?.[1].toLowerCase() as OutputFormat | undefined;
}

/**
 * The hint beside the make button for `format` (null: no choice offered): none while the label
 * names the chosen format or no format at all (the choice beside it shows which), else "Makes M4B".
 */
export function makeHintFor(hostLabel: string, format: OutputFormat | null): string | null {
  if (format === null) return null;
  const named = formatNamedBy(hostLabel);
  if (named === undefined || named === format) return null;
  return t().makesFormat(t().formatNames[format]);
}
