// Pure: a saveItem body checked against the item it edits. Fields left out keep their saved
// value; null puts one back to the default (the file's own start or end, the default title). The
// span is checked whole (a new start against the saved end), on the item's decoded duration; an
// end within END_SLACK_SECONDS past it is the file's end.
import { CHAPTER_TITLE, CHAPTER_TITLE_MAX } from '../../../shared/chapters-file.js';
import { typedTextProblem } from '../../../shared/typed-text.js';
import { checkSpan, spanProblemText } from '../../../shared/trim-span.js';
import type { ItemEdit, ItemRow } from '../../data/store.js';

export type ItemEditCheck =
  | { ok: true; edit: ItemEdit }
  | {
      ok: false;
      field: 'start' | 'end' | 'chapterTitle';
      code: 'badSpan' | 'badChapterTitle' | 'badRequest';
      detail: string;
    };

type SpanField = 'start' | 'end';

function spanValue(body: Record<string, unknown>, field: SpanField, saved: number | null | undefined) {
  if (!(field in body)) return { ok: true as const, value: saved ?? null };
  const v = body[field];
  if (v === null) return { ok: true as const, value: null };
  if (typeof v !== 'number' || !Number.isFinite(v)) return { ok: false as const };
  return { ok: true as const, value: v };
}

export function checkItemEdit(body: Record<string, unknown>, item: ItemRow): ItemEditCheck {
  const values: Partial<Record<SpanField, number | null>> = {};
  for (const field of ['start', 'end'] as const) {
    const got = spanValue(body, field, item[field]);
    if (!got.ok)
      return { ok: false, field, code: 'badRequest', detail: `${field}: seconds (a number) or null` };
    values[field] = got.value;
  }
  const start = values.start ?? null;
  let end = values.end ?? null;
  if (start !== null || end !== null) {
    const span = checkSpan(start ?? undefined, end ?? undefined, item.duration);
    if (!span.ok) {
      // An empty span is the fault of the field this request changed (the end when it changed both).
      const field: SpanField =
        span.problem === 'empty' || span.problem === 'short'
          ? 'end' in body
            ? 'end'
            : 'start'
          : span.problem;
      return {
        ok: false,
        field,
        code: 'badSpan',
        detail: `${field}: ${spanProblemText(span.problem, item.duration)}`,
      };
    }
    // An end at the file's end (or a hair past it) is kept as the end itself, whatever length a
    // merge later finds: a handle moved to the end keeps the whole rest of the file.
    if (end !== null && end >= item.duration) end = null;
  }
  let chapterTitle = item.chapterTitle ?? null;
  if ('chapterTitle' in body) {
    const t = body.chapterTitle;
    if (t !== null && (typeof t !== 'string' || typedTextProblem(t, CHAPTER_TITLE)))
      return {
        ok: false,
        field: 'chapterTitle',
        code: 'badChapterTitle',
        detail: `chapterTitle: one line of at most ${CHAPTER_TITLE_MAX} characters, without control or bidirectional control characters`,
      };
    chapterTitle = t === null || t.trim() === '' ? null : t;
  }
  return { ok: true, edit: { start, end, chapterTitle } };
}
