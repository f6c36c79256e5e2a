// Numbers, percentages, durations, sizes, dates and plurals for one language, with Intl: each
// locale table formats with its own language's rules and digits.
import { clockParts } from '../../shared/format.js';
import type { LocaleCode } from '../../shared/locales.js';

/** The forms a count takes in a language (Intl.PluralRules' categories); `{n}` is the number. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

export interface Formats {
  readonly code: LocaleCode;
  number(n: number): string;
  /** 0-100 -> "35%" as the language writes it ("35 %", "٣٥٪"). */
  percent(p: number): string;
  /** Seconds as "1:05" or "1:02:05" in the language's digits, truncated as a player shows them. */
  duration(seconds: number): string;
  /** Bytes in binary units: "19 bytes", "1.5 MB", "1,5 MB". */
  size(bytes: number): string;
  /** A moment to the minute, in the reader's time zone. */
  dateTime(at: Date): string;
  plural(n: number, forms: PluralForms): string;
  /**
   * A time left, roughly, in the language's words for its units: "40 seconds", "3 minutes",
   * "1 hour, 5 minutes" (rounded up: an estimate that says less than is left misleads).
   */
  roughDuration(seconds: number): string;
}

/** A moment to the minute: the results' times. */
export const DATE_TIME: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
};
const SIZE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

export function formatsFor(code: LocaleCode): Formats {
  const whole = new Intl.NumberFormat(code, { maximumFractionDigits: 2 });
  const two = new Intl.NumberFormat(code, { minimumIntegerDigits: 2, useGrouping: false });
  const plain = new Intl.NumberFormat(code, { useGrouping: false });
  const percent = new Intl.NumberFormat(code, { style: 'percent', maximumFractionDigits: 0 });
  const rules = new Intl.PluralRules(code);
  return {
    code,
    number: (n) => whole.format(n),
    percent: (p) => percent.format(p / 100),
    duration(seconds) {
      const parts = clockParts(seconds);
      if (!parts) return '';
      const { h, m } = parts;
      const s = two.format(parts.s);
      return h > 0 ? `${plain.format(h)}:${two.format(m)}:${s}` : `${plain.format(m)}:${s}`;
    },
    size(bytes) {
      if (!Number.isFinite(bytes) || bytes < 0) return '';
      let v = bytes;
      let u = 0;
      while (v >= 1024 && u < SIZE_UNITS.length - 1) {
        v /= 1024;
        u++;
      }
      const digits = u === 0 || v >= 10 ? 0 : 1;
      return new Intl.NumberFormat(code, {
        style: 'unit',
        unit: SIZE_UNITS[u],
        // Bytes by name, in the count's plural ("19 bytes", "1 byte"; "19 byte" is no English);
        // the larger units keep their short symbols.
        unitDisplay: u === 0 ? 'long' : 'short',
        maximumFractionDigits: digits,
        minimumFractionDigits: digits,
      }).format(v);
    },
    dateTime: (at) => at.toLocaleString(code, DATE_TIME),
    plural(n, forms) {
      const form = forms[rules.select(n)] ?? forms.other;
      return form.replaceAll('{n}', whole.format(n));
    },
    roughDuration(seconds) {
      const unit = (n: number, u: 'second' | 'minute' | 'hour') =>
        new Intl.NumberFormat(code, { style: 'unit', unit: u, unitDisplay: 'long' }).format(n);
      const s = Math.max(1, Math.ceil(seconds));
      if (s < 60) return unit(s < 10 ? s : Math.ceil(s / 5) * 5, 'second');
      const m = Math.ceil(s / 60);
      if (m < 60) return unit(m, 'minute');
      const h = Math.floor(m / 60);
      const parts = [unit(h, 'hour'), ...(m % 60 > 0 ? [unit(m % 60, 'minute')] : [])];
      return new Intl.ListFormat(code, { type: 'unit', style: 'long' }).format(parts);
    },
  };
}
