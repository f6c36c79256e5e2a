// Pure: a kept span of one input (a trim), as a person writes it and as every caller checks it.
// The command line reads `N=START-END`, the server stores `start`/`end` seconds, and both ask the
// same question: does the span fit the input, and is anything left of it?

/** A trim as given: either end may be left out (the input's own start or end). */
export interface TrimRequest {
  /** The input's 0-based position. */
  input: number;
  start?: number;
  end?: number;
}

/** A trim resolved against its input: both ends in seconds, 0 <= start < end <= duration. */
export interface TrimSpan {
  input: number;
  start: number;
  end: number;
}

/**
 * Seconds written as `12.5` or `[h:]m:ss[.mmm]` (`1:02:03.5`); NaN when it is neither. Minutes and
 * seconds after a colon are two digits below 60, as a clock writes them.
 */
export function parseTime(text: string): number {
  const t = text.trim();
  if (/^(\d+(\.\d*)?|\.\d+)$/.test(t)) return Number(t);
  const m = /^(?:(\d+):([0-5]\d):|(\d+):)([0-5]\d(?:\.\d+)?)$/.exec(t);
  if (!m) return NaN;
  const [, h, mm, m1, s] = m;
  const hours = h !== undefined ? Number(h) : 0;
  const minutes = mm !== undefined ? Number(mm) : Number(m1);
  return hours * 3600 + minutes * 60 + Number(s);
}

/** Seconds as a clock writes them: `1:05.250`, `1:02:03.500`. */
export function formatTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  const ss = s.toFixed(3).padStart(6, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/**
 * `N=START-END` (N 1-based), START and END each optional: the request, or why it cannot be read.
 * The one `-` between the two times separates them (times never hold a minus sign).
 */
export function parseTrimArg(text: string): { ok: true; trim: TrimRequest } | { ok: false; reason: string } {
  const eq = text.indexOf('=');
  const n = eq > 0 ? text.slice(0, eq).trim() : '';
  if (!/^\d+$/.test(n) || Number(n) < 1)
    return { ok: false, reason: 'must be N=START-END, N an input number from 1' };
  const span = text.slice(eq + 1);
  const parts = span.split('-');
  if (parts.length !== 2) return { ok: false, reason: 'must be N=START-END (one "-" between the two times)' };
  const trim: TrimRequest = { input: Number(n) - 1 };
  for (const [key, part] of [
    ['start', parts[0]],
    ['end', parts[1]],
  ] as const) {
    if (part.trim() === '') continue;
    const t = parseTime(part);
    if (Number.isNaN(t))
      return { ok: false, reason: `${key} ${JSON.stringify(part)} is not seconds or [h:]m:ss[.mmm]` };
    trim[key] = t;
  }
  return { ok: true, trim };
}

/**
 * Seconds an input keeps of its `duration` once trimmed: from `start` (its own start when absent)
 * to `end` (its own end when absent), never less than nothing.
 */
export function keptSeconds(i: { duration: number; start?: number | null; end?: number | null }): number {
  const end = Math.min(i.end ?? i.duration, i.duration);
  return Math.max(0, end - (i.start ?? 0));
}

/**
 * A span's end past its input's length by at most this much (seconds) means the input's end: the
 * length a page or a player shows is rounded, and a handle moved to the end must never make a
 * merge fail.
 */
export const END_SLACK_SECONDS = 0.05;

/** What is wrong with a span of an input lasting `duration` seconds. */
export type SpanProblem = 'start' | 'end' | 'empty' | 'short';

/**
 * The shortest span kept: 50 ms, more than one frame of every output format at the usual rates
 * (an MP3 frame is 26 ms at 44.1 kHz, an AAC one 23 ms). Anything shorter (a sample, a hair of a
 * second) is nothing a format can hold: no part of it would be written, the input left out.
 */
export const MIN_SPAN_SECONDS = 0.05;

/**
 * The span [start, end) of an input of `duration` seconds, or which end does not fit: a start past
 * the end of the input, an end past it, or nothing kept. `slack` forgives an end a hair past the
 * duration (END_SLACK_SECONDS): the span then ends at the input's end.
 */
export function checkSpan(
  start: number | undefined,
  end: number | undefined,
  duration: number,
  slack = END_SLACK_SECONDS,
): { ok: true; start: number; end: number } | { ok: false; problem: SpanProblem } {
  const s = start ?? 0;
  const e = end ?? duration;
  if (!Number.isFinite(s) || s < 0 || s > duration) return { ok: false, problem: 'start' };
  if (!Number.isFinite(e) || e < 0 || e > duration + slack) return { ok: false, problem: 'end' };
  if (e <= s) return { ok: false, problem: 'empty' };
  const kept = Math.min(e, duration);
  // A span of a file shorter than the least span is the whole file or nothing: a span of it is refused.
  if (kept - s < MIN_SPAN_SECONDS) return { ok: false, problem: 'short' };
  return { ok: true, start: s, end: kept };
}

/** The words for a span's problem, after the trim's name. */
export function spanProblemText(problem: SpanProblem, duration: number): string {
  const d = formatTime(duration);
  if (problem === 'start') return `starts outside the input (it lasts ${d})`;
  if (problem === 'end') return `ends past the input's end (it lasts ${d})`;
  if (problem === 'short')
    return `keeps less than ${MIN_SPAN_SECONDS} s (its end must be at least that after its start)`;
  return 'keeps nothing (its end is not after its start)';
}

/** A trim as the command line writes it, for messages: `--trim 2=1:00.000-2:30.000`. */
export function trimLabel(t: TrimRequest): string {
  const side = (v: number | undefined) => (v === undefined ? '' : String(v));
  return `--trim ${t.input + 1}=${side(t.start)}-${side(t.end)}`;
}

export type TrimCheck =
  { ok: true; spans: TrimSpan[] } | { ok: false; trim: TrimRequest; index: number; reason: string };

/**
 * Every trim against the inputs' decoded durations: each names an input that exists, at most once,
 * with a span that fits it and keeps something. The spans come back in input order.
 */
export function resolveTrims(trims: readonly TrimRequest[], durations: readonly number[]): TrimCheck {
  const seen = new Set<number>();
  const spans: TrimSpan[] = [];
  for (const [index, t] of trims.entries()) {
    if (!Number.isInteger(t.input) || t.input < 0 || t.input >= durations.length) {
      const many = durations.length === 1 ? 'there is 1 input' : `there are ${durations.length} inputs`;
      return { ok: false, trim: t, index, reason: `input ${t.input + 1} does not exist (${many})` };
    }
    if (seen.has(t.input))
      return { ok: false, trim: t, index, reason: `input ${t.input + 1} is trimmed twice` };
    seen.add(t.input);
    const span = checkSpan(t.start, t.end, durations[t.input]);
    if (!span.ok)
      return { ok: false, trim: t, index, reason: spanProblemText(span.problem, durations[t.input]) };
    spans.push({ input: t.input, start: span.start, end: span.end });
  }
  return { ok: true, spans: spans.sort((a, b) => a.input - b.input) };
}
