// Small pure helpers of the upload route: display names, content negotiation, broken bodies.

/**
 * The client's file name, for display only: no folders, no control or bidi-override characters,
 * at most 255 characters. It never becomes part of a path.
 */
export function displayName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const clean = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim();
  // By code points, so a long name of emoji is not cut inside a surrogate pair.
  return Array.from(clean || 'unnamed file')
    .slice(0, 255)
    .join('');
}

/** A plain form post (no JS) asks for HTML; fetch and XHR send JSON or any. */
export function wantsHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((t) => t.split(';')[0].trim().toLowerCase());
  const html = types.indexOf('text/html');
  const json = types.indexOf('application/json');
  return html !== -1 && (json === -1 || html < json);
}
