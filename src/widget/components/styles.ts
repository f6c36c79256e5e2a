// The one stylesheet of the bundle. Every selector sits under an audio-merge- name, so nothing
// leaks out; inside the widget's wrapper the host page's styles are reverted first, so little leaks in.

const AREAS = '.audio-merge-root, .audio-merge-upload, .audio-merge-results';

export const STYLE_ELEMENT_ID = 'audio-merge-styles';

/** The areas under a forced scheme: data-theme on the widget's element (or an ancestor), or on an area itself. */
const themed = (scheme: 'light' | 'dark') =>
  AREAS.split(', ')
    .flatMap((a) => [`[data-theme="${scheme}"] ${a}`, `${a}[data-theme="${scheme}"]`])
    .join(', ');

export const css = `
/* Inside the widget, whatever the host page's CSS says is reverted first; svg innards keep their
   geometry attributes, which all: revert would drop. */
.audio-merge-root { all: revert; display: block; }
.audio-merge-root :not(svg *), .audio-merge-root ::before, .audio-merge-root ::after { all: revert; box-sizing: border-box; }
/* The theme: a host sets the --audio-merge-* properties (docs/reference/widget.md) on the widget's element or
   any ancestor; what it leaves unset follows the light or dark scheme (the reader's, unless
   data-theme="light|dark" on the widget's element or an ancestor forces one). */
${AREAS} {
  --am-d-accent: #4f46e5; --am-d-bg: #ffffff; --am-d-surface: #f9fafb; --am-d-text: #1f2937;
  --am-d-muted: #5f6673; --am-d-border: #e5e7eb; --am-d-danger: #b91c1c; --am-d-ok: #047857;
  --am-mix: black; --am-scheme: light;
}
@media (prefers-color-scheme: dark) {
  ${AREAS} {
    --am-d-accent: #5f63f0; --am-d-bg: #111827; --am-d-surface: #1f2937; --am-d-text: #e5e7eb;
    --am-d-muted: #a3acbd; --am-d-border: #374151; --am-d-danger: #fca5a5; --am-d-ok: #6ee7b7;
    --am-mix: white; --am-scheme: dark;
  }
}
${themed('light')} {
  --am-d-accent: #4f46e5; --am-d-bg: #ffffff; --am-d-surface: #f9fafb; --am-d-text: #1f2937;
  --am-d-muted: #5f6673; --am-d-border: #e5e7eb; --am-d-danger: #b91c1c; --am-d-ok: #047857;
  --am-mix: black; --am-scheme: light;
}
${themed('dark')} {
  --am-d-accent: #5f63f0; --am-d-bg: #111827; --am-d-surface: #1f2937; --am-d-text: #e5e7eb;
  --am-d-muted: #a3acbd; --am-d-border: #374151; --am-d-danger: #fca5a5; --am-d-ok: #6ee7b7;
  --am-mix: white; --am-scheme: dark;
}
${AREAS} {
  --am-accent: var(--audio-merge-accent, var(--am-d-accent));
  --am-on-accent: var(--audio-merge-accent-text, #ffffff);
  --am-bg: var(--audio-merge-background, var(--am-d-bg));
  --am-bg-soft: var(--audio-merge-surface, var(--am-d-surface));
  --am-text: var(--audio-merge-text, var(--am-d-text));
  --am-muted: var(--audio-merge-muted, var(--am-d-muted));
  --am-line: var(--audio-merge-border, var(--am-d-border));
  --am-danger: var(--audio-merge-danger, var(--am-d-danger));
  --am-ok: var(--audio-merge-success, var(--am-d-ok));
  --am-radius: var(--audio-merge-radius, 12px);
  --am-font: var(--audio-merge-font, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif);
  /* Derived, so one accent colours the whole widget: text in the accent's hue that reads on the
     background, a tint for badges, and tints of the danger and success colours. */
  --am-accent-dark: color-mix(in srgb, var(--am-accent) 70%, var(--am-mix));
  --am-accent-press: color-mix(in srgb, var(--am-accent) 85%, black);
  --am-accent-soft: color-mix(in srgb, var(--am-accent) 14%, var(--am-bg));
  --am-accent-line: color-mix(in srgb, var(--am-accent) 40%, var(--am-bg));
  /* Form fields' edges: 3:1 against the background, so a field is seen as one. */
  --am-field-line: color-mix(in srgb, var(--am-muted) 75%, var(--am-bg));
  --am-danger-soft: color-mix(in srgb, var(--am-danger) 10%, var(--am-bg));
  --am-danger-line: color-mix(in srgb, var(--am-danger) 35%, var(--am-bg));
  --am-ok-soft: color-mix(in srgb, var(--am-ok) 10%, var(--am-bg));
  --am-ok-line: color-mix(in srgb, var(--am-ok) 35%, var(--am-bg));
  color-scheme: var(--am-scheme);
  box-sizing: border-box;
  font: 15px/1.45 var(--am-font);
  color: var(--am-text); text-align: start; letter-spacing: normal;
}
.audio-merge-root { background: var(--am-bg); border-radius: var(--am-radius); }
.audio-merge-upload, .audio-merge-results {
  display: block; max-width: 960px; margin: 0 auto 20px; padding: 20px;
  background: var(--am-bg); border: 1px solid var(--am-line); border-radius: var(--am-radius);
  box-shadow: 0 1px 2px rgb(0 0 0 / 0.04);
}
.audio-merge-root :focus-visible, .audio-merge-upload :focus-visible, .audio-merge-results :focus-visible {
  outline: 3px solid var(--am-accent); outline-offset: 2px;
}
/* Switches and radios big enough to hit (24 px with their label's spacing). */
.audio-merge-root input[type="checkbox"], .audio-merge-root input[type="radio"] {
  inline-size: 18px; block-size: 18px; margin: 3px; accent-color: var(--am-accent);
}

/* The list view, laid out by the widget's own width (the page may give it any): where there is room
   the rows' column (320 to 560 px, so long names show whole) and the choices share it side by side;
   where there is not, the choices go below and the rows stand centred above them (the title and
   the hint keep to the start), so neither layout leaves a wide blank strip beside the rows. */
.audio-merge-root .audio-merge-tool-view { container-type: inline-size; }
.audio-merge-root .audio-merge-columns { display: flex; flex-direction: column; gap: 18px; }
.audio-merge-root .audio-merge-list-column { min-width: 0; }
.audio-merge-root .audio-merge-list-column .audio-merge-list { align-items: center; }
@container (min-width: 600px) {
  .audio-merge-root .audio-merge-columns { flex-direction: row; align-items: flex-start; gap: 18px 28px; }
  .audio-merge-root .audio-merge-list-column { flex: 1 1 560px; min-width: 320px; max-width: 560px; }
  .audio-merge-root .audio-merge-list-column .audio-merge-list { align-items: stretch; }
  .audio-merge-root .audio-merge-side-column { flex: 1 1 280px; min-width: 240px; }
}
.audio-merge-root .audio-merge-list-column .audio-merge-list { margin-bottom: 0; }
.audio-merge-root .audio-merge-list-column > :last-child { margin-bottom: 0; }
/* Beside the rows the choices read from the start, and make closes the column at its end. */
.audio-merge-root .audio-merge-side-column .audio-merge-actions { justify-content: flex-start; }
.audio-merge-root .audio-merge-side-column .audio-merge-output { justify-content: flex-start; }
.audio-merge-root .audio-merge-side-column .audio-merge-make,
.audio-merge-root .audio-merge-side-column .audio-merge-make-hint { margin-inline-start: auto; }
.audio-merge-root .audio-merge-side-column .audio-merge-make-hint + .audio-merge-make { margin-inline-start: 0; }
.audio-merge-root .audio-merge-title { margin: 0 0 6px; font-size: 17px; font-weight: 600; }
.audio-merge-root .audio-merge-hint { margin: 0 0 12px; color: var(--am-muted); font-size: 13px; }
.audio-merge-root .audio-merge-uploading { margin: 0 0 12px; color: var(--am-muted); font-size: 14px; }
/* Sticks to the window's bottom while the list runs past it: a removal is seen where it happened. */
.audio-merge-root .audio-merge-notices { position: sticky; bottom: 8px; z-index: 3; }
.audio-merge-root .audio-merge-removals { display: grid; gap: 6px; margin: 0 0 12px; }
.audio-merge-root .audio-merge-removals:empty, .audio-merge-root .audio-merge-info-region:empty { display: none; }
.audio-merge-root .audio-merge-info-region { margin: 0 0 12px; }
.audio-merge-root .audio-merge-removal, .audio-merge-root .audio-merge-notice, .audio-merge-root .audio-merge-info {
  display: flex; align-items: center; justify-content: space-between; gap: 12px; margin: 0;
  padding-block: 8px; padding-inline: 12px 8px;
  border-radius: 10px; font-size: 14px; overflow-wrap: anywhere;
}
.audio-merge-root .audio-merge-info { background: var(--am-accent-soft); border: 1px solid var(--am-line); }
.audio-merge-root .audio-merge-removal { background: var(--am-bg-soft); border: 1px solid var(--am-line); box-shadow: 0 4px 14px rgb(0 0 0 / 0.18); }
.audio-merge-root .audio-merge-notice { margin: 0 0 12px; color: var(--am-danger); background: var(--am-danger-soft); border: 1px solid var(--am-danger-line); }
.audio-merge-root .audio-merge-undo, .audio-merge-root .audio-merge-dismiss {
  flex: none; min-height: 32px; padding: 0 12px; border: 1px solid var(--am-line); border-radius: 8px; cursor: pointer;
  font: inherit; font-weight: 600; color: var(--am-accent-dark); background: var(--am-bg);
}
.audio-merge-root .audio-merge-load-failed, .audio-merge-root .audio-merge-expired { color: var(--am-danger); border-color: var(--am-danger-line); background: var(--am-danger-soft); }
.audio-merge-root .audio-merge-empty {
  margin: 0 0 16px; padding: 22px 16px; text-align: center; color: var(--am-muted);
  background: var(--am-bg-soft); border: 1px dashed var(--am-line); border-radius: 10px;
}
.audio-merge-root .audio-merge-list {
  list-style: none; margin: 0 0 18px; padding: 0; display: flex; flex-direction: column; gap: 10px;
}
.audio-merge-root .audio-merge-row {
  position: relative; display: flex; align-items: stretch; gap: 10px;
  width: 100%; min-width: min(320px, 100%); max-width: 560px; height: 120px; padding-block: 7px; padding-inline: 6px 12px; overflow: hidden;
  background: var(--am-bg); border: 1px solid var(--am-line); border-radius: 10px;
  box-shadow: 0 1px 2px rgb(0 0 0 / 0.05); cursor: grab; user-select: none;
  transition: box-shadow 160ms ease, border-color 160ms ease;
}
.audio-merge-root .audio-merge-row audio { cursor: auto; }
.audio-merge-root .audio-merge-row:hover { border-color: var(--am-accent-line); }
.audio-merge-root .audio-merge-row:focus-visible { outline: 3px solid var(--am-accent); outline-offset: 2px; }
.audio-merge-root .audio-merge-row--lifted {
  z-index: 2; border-color: var(--am-accent); cursor: grabbing;
  box-shadow: 0 12px 28px rgb(17 24 39 / 0.18), 0 2px 6px rgb(17 24 39 / 0.12);
}
.audio-merge-root .audio-merge-handle {
  display: flex; align-items: center; justify-content: center; flex: 0 0 24px;
  margin-block: -10px; margin-inline: -6px 0; padding-inline-start: 6px; color: var(--am-muted); cursor: grab;
  touch-action: none; user-select: none; border-start-start-radius: 10px; border-end-start-radius: 10px;
}
.audio-merge-root .audio-merge-handle:hover,
.audio-merge-root .audio-merge-row--lifted .audio-merge-handle { color: var(--am-accent); background: var(--am-accent-soft); }
.audio-merge-root .audio-merge-handle svg { display: block; width: 10px; height: 16px; fill: currentColor; }
.audio-merge-root .audio-merge-row-body { display: flex; flex-direction: column; min-width: 0; flex: 1 1 auto; gap: 2px; }
.audio-merge-root .audio-merge-row-head { display: flex; align-items: center; gap: 8px; min-width: 0; }
.audio-merge-root .audio-merge-remove {
  display: inline-flex; align-items: center; justify-content: center; flex: 0 0 28px; width: 28px; height: 28px;
  margin-block: -2px; margin-inline: auto -4px; padding: 0; border: 0; border-radius: 8px; cursor: pointer;
  color: var(--am-muted); background: transparent;
}
.audio-merge-root .audio-merge-remove:hover { color: var(--am-danger); background: var(--am-danger-soft); }
.audio-merge-root .audio-merge-remove svg { display: block; width: 12px; height: 12px; }
.audio-merge-root .audio-merge-position {
  display: inline-flex; align-items: center; justify-content: center; flex: 0 0 auto;
  min-width: 24px; height: 24px; padding: 0 6px; border-radius: 12px;
  background: var(--am-accent-soft); color: var(--am-accent-dark); font-size: 13px; font-weight: 700;
  font-variant-numeric: tabular-nums;
}
.audio-merge-root .audio-merge-filename { font-weight: 600; min-width: 0; }
/* A long name gives way in its middle: its start ends in an ellipsis, its end (where names of one
   set differ) always shows. */
.audio-merge-root .audio-merge-name { display: flex; min-width: 0; white-space: pre; }
.audio-merge-root .audio-merge-name-start { flex: 0 1 auto; min-width: 1.5em; overflow: hidden; text-overflow: ellipsis; }
.audio-merge-root .audio-merge-name-end { flex: 0 0 auto; }
.audio-merge-root .audio-merge-meta-line { display: flex; align-items: center; gap: 8px; min-height: 20px; padding-inline-start: 32px; }
.audio-merge-root .audio-merge-meta { color: var(--am-muted); font-size: 13px; white-space: nowrap; }
.audio-merge-root .audio-merge-waveform { position: relative; flex: 1 1 auto; min-width: 60px; height: 20px; margin-inline-end: 6px; cursor: default; direction: ltr; }
.audio-merge-root .audio-merge-waveform canvas { display: block; width: 100%; height: 20px; }
.audio-merge-root .audio-merge-trim-handle {
  position: absolute; top: -3px; width: 24px; height: 26px; margin-left: -12px; box-sizing: border-box;
  background: transparent; cursor: ew-resize; touch-action: none;
}
/* The handle's visible bar is narrow; the target around it is 24 px wide for a finger or a shaky hand. */
.audio-merge-root .audio-merge-trim-handle::before {
  content: ''; position: absolute; inset: 0 6px; border-radius: 4px; background: var(--am-accent);
  border: 2px solid #fff; box-shadow: 0 1px 2px rgb(0 0 0 / 0.3);
}
.audio-merge-root .audio-merge-trim-handle:focus-visible { outline: 3px solid var(--am-accent-dark); outline-offset: 1px; }
/* A trimmed row's reset sits in the gutter under the position number (a 24 px target that overhangs
   the 20 px line into the gaps around it, so the row keeps its height); its kept length takes the
   place of "2:05 · MP3", in the same grid cell (the one not shown invisible), so nothing on the
   line moves when a row becomes trimmed. */
.audio-merge-root .audio-merge-trim-reset {
  display: inline-flex; align-items: center; justify-content: center; flex: 0 0 24px; width: 24px; height: 24px;
  margin-block: -2px; margin-inline: -32px 0; padding: 0; border: 0; border-radius: 12px; cursor: pointer;
  color: var(--am-accent-dark); background: var(--am-accent-soft);
}
.audio-merge-root .audio-merge-trim-reset:hover { color: var(--am-on-accent); background: var(--am-accent); }
.audio-merge-root .audio-merge-trim-reset svg { display: block; width: 14px; height: 14px; }
.audio-merge-root .audio-merge-meta-slot { display: inline-grid; flex: 0 0 auto; align-items: center; }
.audio-merge-root .audio-merge-meta-slot > * { grid-area: 1 / 1; justify-self: start; }
.audio-merge-root .audio-merge-meta-slot > .audio-merge-slot-idle { visibility: hidden; }
.audio-merge-root .audio-merge-meta-slot:empty { display: none; }
.audio-merge-root .audio-merge-kept {
  position: relative; display: inline-flex; align-items: center; gap: 3px; flex: 0 0 auto;
  font-size: 12px; font-weight: 600; font-variant-numeric: tabular-nums; color: var(--am-accent-dark);
  background: var(--am-accent-soft); border-radius: 8px; padding: 1px 6px; white-space: nowrap;
}
.audio-merge-root .audio-merge-kept svg { display: block; flex: none; width: 12px; height: 12px; }
.audio-merge-root .audio-merge-player { display: block; width: 100%; height: 30px; margin-top: auto; }
/* A trimmed row's player counts its kept span: a play button and that span's clock. */
.audio-merge-root .audio-merge-span-player { display: flex; align-items: center; gap: 8px; height: 30px; margin-top: auto; }
.audio-merge-root .audio-merge-span-player audio { display: none; }
.audio-merge-root .audio-merge-span-play {
  display: inline-flex; align-items: center; justify-content: center; flex: 0 0 30px; width: 30px; height: 30px;
  padding: 0; border: 1px solid var(--am-field-line); border-radius: 15px; cursor: pointer;
  color: var(--am-accent-dark); background: var(--am-bg);
}
.audio-merge-root .audio-merge-span-play svg { display: block; fill: currentColor; }
.audio-merge-root .audio-merge-span-time { font-size: 13px; font-variant-numeric: tabular-nums; color: var(--am-text); }
/* The chapter title line: a short visible word, then the field (the default title as placeholder). */
.audio-merge-root .audio-merge-row-chapter { display: flex; align-items: center; gap: 6px; min-width: 0; height: 24px; padding-inline-start: 32px; }
.audio-merge-root .audio-merge-chapter-label { flex: 0 0 auto; color: var(--am-muted); font-size: 12px; }
.audio-merge-root .audio-merge-chapter-title {
  flex: 1 1 auto; min-width: 0; height: 24px; margin: 0; padding: 0 6px; box-sizing: border-box;
  font: inherit; font-size: 13px; color: var(--am-text); background: var(--am-bg);
  border: 1px solid var(--am-line); border-radius: 6px; cursor: text; user-select: text;
}
.audio-merge-root .audio-merge-chapter-title::placeholder { color: var(--am-muted); opacity: 0.85; }
.audio-merge-root .audio-merge-chapter-title:focus-visible { outline: 2px solid var(--am-accent); outline-offset: 0; border-color: var(--am-accent); }
.audio-merge-root .audio-merge-chapter-title[aria-invalid="true"] { border-color: var(--am-danger); }
.audio-merge-root .audio-merge-chapter-error { margin: 0; padding-inline-start: 32px; color: var(--am-danger); font-size: 12px; }
/* A refused title's reason opens the row taller until a title is saved. */
.audio-merge-root .audio-merge-row--invalid { height: auto; min-height: 120px; }

.audio-merge-root .audio-merge-make, .audio-merge-root .audio-merge-reload, .audio-merge-upload .audio-merge-upload-button {
  display: inline-flex; align-items: center; justify-content: center; gap: 8px;
  min-height: 44px; padding: 0 22px; border: 0; border-radius: 10px; cursor: pointer;
  font: inherit; font-weight: 600; color: var(--am-on-accent); background: var(--am-accent);
  transition: background-color 120ms ease, transform 120ms ease;
}
.audio-merge-root .audio-merge-make:hover:not(:disabled) { background: var(--am-accent-press); }
.audio-merge-root .audio-merge-make:active:not(:disabled) { transform: translateY(1px); }
.audio-merge-root .audio-merge-make:disabled { cursor: not-allowed; color: var(--am-muted); background: var(--am-bg-soft); box-shadow: inset 0 0 0 1px var(--am-line); }

/* The output choice beside the make button (only when the host offers more than one format) */
.audio-merge-root .audio-merge-actions { display: flex; flex-wrap: wrap; align-items: center; justify-content: flex-end; gap: 10px; }
.audio-merge-root .audio-merge-make-hint { font-size: 13px; font-weight: 600; color: var(--am-muted); }
.audio-merge-root .audio-merge-output { display: inline-flex; flex-wrap: wrap; justify-content: flex-end; align-items: center; gap: 10px; font-size: 14px; max-inline-size: 100%; }
.audio-merge-root .audio-merge-no-chapters { font-size: 13px; color: var(--am-muted); }
.audio-merge-root .audio-merge-format, .audio-merge-root .audio-merge-quality { max-inline-size: 100%; min-height: 44px; padding: 0 8px; border: 1px solid var(--am-field-line); border-radius: 8px; font: inherit; color: var(--am-text); background: var(--am-bg); }
.audio-merge-root .audio-merge-chapters-switch { display: inline-flex; align-items: center; gap: 6px; min-height: 44px; cursor: pointer; }
/* The book's details: a disclosure button like the sound options', its panel on a line of its own. */
.audio-merge-root .audio-merge-details { display: contents; }
.audio-merge-root .audio-merge-details-toggle {
  display: inline-flex; align-items: center; gap: 6px; min-height: 44px; padding: 0 12px; cursor: pointer;
  border: 1px solid var(--am-field-line); border-radius: 8px; font: inherit; font-size: 14px; font-weight: 600;
  color: var(--am-accent-dark); background: var(--am-bg);
}
.audio-merge-root .audio-merge-details-toggle[aria-expanded="true"] { background: var(--am-accent-soft); border-color: var(--am-accent-line); }
.audio-merge-root .audio-merge-details-panel {
  display: grid; grid-template-columns: repeat(auto-fill, minmax(180px, 1fr)); gap: 10px; flex: 1 1 100%;
  padding: 12px 14px; background: var(--am-bg-soft); border: 1px solid var(--am-line); border-radius: 10px; font-size: 14px;
}
.audio-merge-root .audio-merge-detail { display: grid; gap: 4px; font-weight: 600; }
.audio-merge-root .audio-merge-detail input, .audio-merge-root .audio-merge-detail textarea {
  min-height: 36px; padding: 4px 8px; border: 1px solid var(--am-field-line); border-radius: 6px; font: inherit; font-weight: 400; color: var(--am-text); background: var(--am-bg);
}
.audio-merge-root .audio-merge-detail-description, .audio-merge-root .audio-merge-cover { grid-column: 1 / -1; }
.audio-merge-root .audio-merge-detail textarea { min-height: 72px; resize: vertical; }
.audio-merge-root .audio-merge-cover {
  display: flex; flex-wrap: wrap; align-items: center; gap: 8px 12px; padding: 10px;
  border: 2px dashed var(--am-field-line); border-radius: 8px; background: var(--am-bg);
}
.audio-merge-root .audio-merge-cover-pick { position: relative; display: inline-flex; align-items: center; gap: 8px 12px; min-width: 0; max-width: 100%; font-weight: 600; }
.audio-merge-root .audio-merge-cover-choose {
  display: inline-flex; align-items: center; min-height: 36px; padding: 0 12px; cursor: pointer;
  border: 1px solid var(--am-field-line); border-radius: 6px; color: var(--am-accent-dark); background: var(--am-bg);
}
.audio-merge-root .audio-merge-cover-pick:hover .audio-merge-cover-choose { background: var(--am-accent-soft); }
.audio-merge-root .audio-merge-cover-pick input:focus-visible + .audio-merge-cover-choose { outline: 3px solid var(--am-accent-dark); outline-offset: 2px; }
.audio-merge-root .audio-merge-cover-hint { color: var(--am-muted); font-size: 13px; }
.audio-merge-root .audio-merge-cover-preview { inline-size: 96px; block-size: 96px; object-fit: contain; background: var(--am-bg-soft); border-radius: 6px; border: 1px solid var(--am-line); }
.audio-merge-root .audio-merge-cover-set { display: inline-flex; align-items: center; gap: 8px 12px; }
.audio-merge-root .audio-merge-cover-remove { min-height: 36px; min-width: 36px; padding: 0 10px; border: 1px solid var(--am-field-line); border-radius: 6px; font: inherit; cursor: pointer; color: var(--am-text); background: var(--am-bg); }
.audio-merge-root .audio-merge-cover-error { flex: 1 1 100%; margin: 0; color: var(--am-danger); font-weight: 600; }
/* The sound options: a disclosure button beside the output choice; its panel takes a line of its
   own between them and the make button. */
.audio-merge-root .audio-merge-sound-toggle {
  display: inline-flex; align-items: center; gap: 6px; min-height: 44px; padding: 0 12px; cursor: pointer;
  border: 1px solid var(--am-line); border-radius: 8px; font: inherit; font-size: 14px; font-weight: 600;
  color: var(--am-accent-dark); background: var(--am-bg);
}
.audio-merge-root .audio-merge-sound-count {
  padding: 1px 7px; border-radius: 10px; font-size: 12px; color: var(--am-on-accent); background: var(--am-accent);
}
.audio-merge-root .audio-merge-sound-toggle[aria-expanded="true"] { background: var(--am-accent-soft); border-color: var(--am-accent-line); }
.audio-merge-root .audio-merge-sound {
  display: grid; gap: 10px; flex: 1 1 100%; margin: 0; padding: 12px 14px;
  background: var(--am-bg-soft); border: 1px solid var(--am-line); border-radius: 10px; font-size: 14px;
}
.audio-merge-root .audio-merge-sound-option { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 12px; margin: 0; padding: 0; border: 0; min-width: 0; }
.audio-merge-root .audio-merge-sound-option legend { float: inline-start; margin-inline-end: 12px; padding: 0; font-weight: 600; }
.audio-merge-root .audio-merge-sound-switch { display: inline-flex; align-items: center; gap: 6px; min-height: 32px; font-weight: 600; cursor: pointer; }
.audio-merge-root .audio-merge-between-choices { display: inline-flex; flex-wrap: wrap; align-items: center; gap: 4px 12px; }
.audio-merge-root .audio-merge-between-choices label { display: inline-flex; align-items: center; gap: 4px; min-height: 32px; cursor: pointer; }
.audio-merge-root .audio-merge-seconds input { width: 5em; min-height: 32px; padding: 0 6px; border: 1px solid var(--am-field-line); border-radius: 6px; font: inherit; color: var(--am-text); background: var(--am-bg); }
.audio-merge-root .audio-merge-seconds input[aria-invalid="true"] { border-color: var(--am-danger); }
.audio-merge-root .audio-merge-loudness-target { min-height: 32px; padding: 0 6px; border: 1px solid var(--am-field-line); border-radius: 6px; font: inherit; color: var(--am-text); background: var(--am-bg); }
.audio-merge-root .audio-merge-sound-help { flex: 1 1 100%; margin: 0; color: var(--am-muted); font-size: 13px; }
.audio-merge-root .audio-merge-sound-error { flex: 1 1 100%; margin: 0; color: var(--am-danger); font-size: 13px; font-weight: 600; }
/* A field that cannot be used looks it, in both themes: muted words on the soft surface, no pointer. */
.audio-merge-root :is(input, select, textarea):disabled {
  cursor: not-allowed; color: var(--am-muted); background: var(--am-bg-soft); border-color: var(--am-line); opacity: 0.75;
}
.audio-merge-root .audio-merge-visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }

/* The progress view */
.audio-merge-root .audio-merge-progress {
  display: flex; flex-direction: column; align-items: center; gap: 14px; padding: 18px 4px 8px; outline: none;
}
.audio-merge-root .audio-merge-spinner {
  display: block; width: 40px; height: 40px; border-radius: 50%;
  border: 4px solid var(--am-accent-soft); border-top-color: var(--am-accent);
  animation: audio-merge-spin 0.9s linear infinite;
}
.audio-merge-root .audio-merge-bar {
  display: block; width: 100%; max-width: 480px; height: 12px; overflow: hidden;
  background: var(--am-line); border-radius: 6px;
}
.audio-merge-root .audio-merge-bar-fill {
  display: block; height: 100%; background: var(--am-accent);
  border-radius: 6px; transition: width 400ms ease;
}
.audio-merge-root .audio-merge-status {
  margin: 0; font-size: 18px; font-weight: 600; text-align: center; font-variant-numeric: tabular-nums;
  overflow-wrap: anywhere;
}
.audio-merge-root .audio-merge-progress--failed .audio-merge-status { color: var(--am-danger); font-size: 16px; max-width: 480px; }
.audio-merge-root .audio-merge-stage {
  margin: 0; color: var(--am-muted); font-size: 14px; text-align: center; font-variant-numeric: tabular-nums;
  overflow-wrap: anywhere;
}
.audio-merge-root .audio-merge-spinner--stopped { animation: none; border-color: var(--am-line); }
.audio-merge-root .audio-merge-progress--failed .audio-merge-spinner--stopped { border-color: var(--am-danger-line); border-top-color: var(--am-danger); }
.audio-merge-root .audio-merge-cancel {
  min-height: 40px; padding: 0 18px; border: 1px solid var(--am-line); border-radius: 10px; cursor: pointer;
  font: inherit; font-weight: 600; color: var(--am-text); background: var(--am-bg);
}
.audio-merge-root .audio-merge-cancel:hover:not(:disabled) { border-color: var(--am-danger); color: var(--am-danger); }
.audio-merge-root .audio-merge-cancel:disabled { cursor: progress; color: var(--am-muted); }
@keyframes audio-merge-spin { to { transform: rotate(360deg); } }
/* Reduced motion: the spinner stands still (the bar and the text still say the merge goes on),
   and rows move at once, their drag transitions (set inline by the drag library) overridden. */
@media (prefers-reduced-motion: reduce) {
  .audio-merge-root .audio-merge-spinner { animation: none; border-color: var(--am-accent-line); border-top-color: var(--am-accent); }
  .audio-merge-root .audio-merge-bar-fill, .audio-merge-root .audio-merge-row, .audio-merge-root .audio-merge-make,
  .audio-merge-upload .audio-merge-dropzone, .audio-merge-upload .audio-merge-upload-bar-fill { transition: none !important; }
}

/* The upload area: what the script adds to it gets the same protection as the widget. */
.audio-merge-upload-list, .audio-merge-upload-list :not(svg *), .audio-merge-dropzone, .audio-merge-dropzone :not(svg *),
.audio-merge-upload-summary {
  all: revert; box-sizing: border-box;
}
.audio-merge-upload h2, .audio-merge-results h2 { margin: 0 0 12px; font-size: 17px; font-weight: 600; }
.audio-merge-upload form { display: flex; flex-wrap: wrap; align-items: center; gap: 12px; margin: 0; }
.audio-merge-upload .audio-merge-dropzone {
  display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 4px;
  flex: 1 1 100%; min-height: 110px; padding: 18px; text-align: center; cursor: pointer;
  color: var(--am-muted); background: var(--am-bg-soft);
  border: 2px dashed var(--am-accent-line); border-radius: 10px; transition: background-color 120ms ease, border-color 120ms ease;
}
.audio-merge-upload .audio-merge-dropzone strong { color: var(--am-accent-dark); font-weight: 600; }
.audio-merge-upload .audio-merge-dropzone:hover, .audio-merge-upload .audio-merge-dropzone--over {
  background: var(--am-accent-soft); border-color: var(--am-accent);
}
.audio-merge-upload .audio-merge-dropzone:focus-within { outline: 3px solid var(--am-accent); outline-offset: 2px; }
.audio-merge-upload .audio-merge-dropzone input[type="file"] {
  position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0;
  overflow: hidden; clip-path: inset(50%); white-space: nowrap;
}
.audio-merge-upload .audio-merge-upload-form--enhanced button[type="submit"] { display: none; }
.audio-merge-upload button[type="submit"] {
  min-height: 40px; padding: 0 18px; border: 0; border-radius: 10px; cursor: pointer;
  font: inherit; font-weight: 600; color: var(--am-on-accent); background: var(--am-accent);
}
.audio-merge-upload .audio-merge-upload-summary {
  margin: 12px 0 0; padding: 10px 12px; border-radius: 10px; font-size: 14px; font-weight: 600;
  color: var(--am-ok); background: var(--am-ok-soft); border: 1px solid var(--am-ok-line);
}
.audio-merge-upload .audio-merge-upload-summary:empty { display: none; }
.audio-merge-upload .audio-merge-upload-list { list-style: none; margin: 12px 0 0; padding: 0; display: grid; gap: 8px; }
.audio-merge-upload .audio-merge-upload-list:empty { display: none; }
.audio-merge-upload .audio-merge-upload-item {
  display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 4px 12px; align-items: center;
  padding: 10px 12px; border: 1px solid var(--am-line); border-radius: 10px; font-size: 14px;
}
.audio-merge-upload .audio-merge-upload-name { display: flex; min-width: 0; font-weight: 600; white-space: nowrap; }
.audio-merge-upload .audio-merge-upload-file { min-width: 0; overflow: hidden; text-overflow: ellipsis; }
.audio-merge-upload .audio-merge-upload-size { flex: none; white-space: pre; }
.audio-merge-upload .audio-merge-upload-state { color: var(--am-muted); font-size: 13px; font-variant-numeric: tabular-nums; }
.audio-merge-upload .audio-merge-upload-bar { grid-column: 1 / -1; display: block; height: 6px; background: var(--am-line); border-radius: 3px; overflow: hidden; }
.audio-merge-upload .audio-merge-upload-bar-fill { display: block; height: 100%; width: 0; background: var(--am-accent); transition: width 200ms ease; }
.audio-merge-upload .audio-merge-upload-item--done .audio-merge-upload-state { color: var(--am-ok); }
.audio-merge-upload .audio-merge-upload-item--done .audio-merge-upload-bar-fill { background: var(--am-ok); }
.audio-merge-upload .audio-merge-upload-item--failed { border-color: var(--am-danger-line); background: var(--am-danger-soft); }
.audio-merge-upload .audio-merge-upload-item--failed .audio-merge-upload-bar { display: none; }
.audio-merge-upload .audio-merge-upload-error { grid-column: 1 / -1; margin: 0; color: var(--am-danger); font-size: 13px; overflow-wrap: anywhere; }

/* The results */
.audio-merge-results .audio-merge-result {
  display: grid; gap: 8px; margin: 0 0 12px; padding: 14px; border: 1px solid var(--am-line); border-radius: 10px;
}
.audio-merge-results .audio-merge-result:last-child { margin-bottom: 0; }
.audio-merge-results audio { display: block; width: 100%; }
.audio-merge-results .audio-merge-download {
  justify-self: start; display: inline-flex; align-items: center; min-height: 24px; color: var(--am-accent-dark); font-weight: 600; text-decoration: underline;
  text-underline-offset: 3px; cursor: pointer;
}
.audio-merge-results .audio-merge-download:hover { color: var(--am-accent); }
.audio-merge-results .audio-merge-result-delete {
  margin-inline-start: auto; min-height: 32px; padding: 0 12px; border: 1px solid var(--am-line); border-radius: 8px; cursor: pointer;
  font: inherit; font-size: 14px; font-weight: 600; color: var(--am-danger); background: var(--am-bg);
}
.audio-merge-results .audio-merge-result-delete:hover:not(:disabled) { border-color: var(--am-danger); background: var(--am-danger-soft); }
.audio-merge-results .audio-merge-result-delete:disabled { cursor: progress; color: var(--am-muted); }
.audio-merge-results .audio-merge-result-error { margin: 0; color: var(--am-danger); font-size: 14px; }
.audio-merge-results .audio-merge-result-error:empty { display: none; }
.audio-merge-results ol { margin: 0; padding-inline-start: 22px; color: var(--am-muted); font-size: 14px; }
.audio-merge-results .audio-merge-result-meta {
  display: flex; flex-wrap: wrap; align-items: center; gap: 4px 14px; margin: 0; color: var(--am-muted); font-size: 14px;
  font-variant-numeric: tabular-nums;
}
/* A result's card: its cover at the start of its head (whole, as embedded: a cover need not be square), the book's title beside it, then who wrote and reads it. */
.audio-merge-results .audio-merge-result-head { display: flex; align-items: flex-start; gap: 12px; }
.audio-merge-results .audio-merge-result-cover {
  flex: none; inline-size: 96px; block-size: 96px; object-fit: contain; background: var(--am-bg-soft);
  border: 1px solid var(--am-line); border-radius: 8px;
}
.audio-merge-results .audio-merge-result-heading { min-width: 0; }
.audio-merge-results .audio-merge-result-title { margin: 0; font-size: 17px; font-weight: 600; overflow-wrap: anywhere; }
.audio-merge-results .audio-merge-result-people { margin: 2px 0 0; color: var(--am-muted); font-size: 14px; }
.audio-merge-results .audio-merge-result-people div { display: flex; flex-wrap: wrap; gap: 0 6px; }
.audio-merge-results .audio-merge-result-people dd { margin: 0; color: var(--am-text); overflow-wrap: anywhere; }
.audio-merge-results .audio-merge-chapters-heading { margin: 4px 0 0; font-size: 15px; font-weight: 600; color: var(--am-text); }
.audio-merge-results .audio-merge-sources::before { content: attr(data-label); display: block; margin-inline-start: -22px; font-weight: 600; color: var(--am-text); }
.audio-merge-results .empty, .audio-merge-upload .hint { margin: 8px 0 0; color: var(--am-muted); font-size: 14px; }

@media (max-width: 480px) {
  .audio-merge-upload, .audio-merge-results { padding: 14px; }
  /* On a phone a long status takes its own line, under the name, rather than the name's room. */
  .audio-merge-upload .audio-merge-upload-state { grid-column: 1 / -1; }
  .audio-merge-root .audio-merge-make { width: 100%; }
}
`;

/** Add the stylesheet once per document. */
export function injectStyles(doc: Document = document): void {
  if (doc.getElementById(STYLE_ELEMENT_ID)) return;
  const style = doc.createElement('style');
  style.id = STYLE_ELEMENT_ID;
  style.textContent = css;
  doc.head.appendChild(style);
}
