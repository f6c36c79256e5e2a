// Which language the widget speaks and the table it speaks from. English is in the bundle; the
// other languages are chunks of their own, fetched only by a page that asks for them. One widget
// per page, so the table in use is one for the page: t() gives it to views and rules alike.
import { DEFAULT_LOCALE, directionOf, matchLocale, type LocaleCode } from '../../shared/locales.js';
import { en, type Locale } from './en.js';

/** A host's own words for some keys (docs/reference/widget.md: data-strings). */
export type StringOverrides = {
  [K in keyof Locale]?: Locale[K] extends object ? Partial<Locale[K]> : Locale[K];
};

const LOADERS: Record<Exclude<LocaleCode, 'en'>, () => Promise<{ default: Locale }>> = {
  de: () => import('./de.js'),
  fr: () => import('./fr.js'),
  es: () => import('./es.js'),
  ru: () => import('./ru.js'),
  ar: () => import('./ar.js'),
};

let active: { code: LocaleCode; table: Locale } = { code: DEFAULT_LOCALE, table: en };

/** The words of the language in use. */
export const t = (): Locale => active.table;
export const activeLocale = (): LocaleCode => active.code;

/** data-locale on the widget's element, else the page's <html lang>, else English. */
export function chooseLocale(el: Element | null, doc: Document = el?.ownerDocument ?? document): LocaleCode {
  const asked = el?.getAttribute('data-locale');
  return matchLocale(asked) ?? matchLocale(doc.documentElement.getAttribute('lang')) ?? DEFAULT_LOCALE;
}

/** The table of a language, fetched when it is not English. */
export async function loadLocale(code: LocaleCode): Promise<Locale> {
  return code === 'en' ? en : (await LOADERS[code]()).default;
}

/**
 * A template of the host's for a key whose English value is a function: `{1}`, `{2}`... stand
 * for its arguments in order ("{1}, Platz {2} von {3}").
 */
function fromTemplate(template: string): (...args: unknown[]) => string {
  return (...args) =>
    template.replace(/\{(\d)\}/g, (whole, i: string) => {
      const at = Number(i) - 1;
      return at >= 0 && at < args.length ? String(args[at]) : whole;
    });
}

/**
 * The host's data-strings JSON over a table: a string for a word, a template for a sentence
 * with parts, an object of strings for a list (formatLabels). Keys the table lacks, or values of
 * another kind, are left out (and said in the console), so a typo cannot break the widget.
 */
export function withOverrides(table: Locale, raw: unknown): Locale {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return table;
  const out: Record<string, unknown> = { ...table };
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const base: unknown = Object.hasOwn(table, key) ? table[key as keyof Locale] : undefined;
    if (typeof base === 'string' && typeof value === 'string') out[key] = value;
    else if (typeof base === 'function' && typeof value === 'string') out[key] = fromTemplate(value);
    else if (typeof base === 'function' && typeof value === 'function') out[key] = value;
    else if (typeof base === 'object' && base !== null && typeof value === 'object' && value !== null)
      out[key] = { ...base, ...pickStrings(base, value as Record<string, unknown>) };
    else console.warn(`audio-merge: data-strings key "${key}" is not one the widget knows`);
  }
  return out as Locale;
}

function pickStrings(base: object, value: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(value).filter(([k, v]) => Object.hasOwn(base, k) && typeof v === 'string'),
  ) as Record<string, string>;
}

/** The host's data-strings attribute, parsed; a broken one is said in the console and ignored. */
export function readOverrides(el: Element | null): unknown {
  const raw = el?.getAttribute('data-strings');
  if (!raw) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    console.warn('audio-merge: data-strings is not JSON; the widget keeps its own words');
    return undefined;
  }
}

/** Use `table` (with the host's overrides) from now on. */
export function applyLocale(code: LocaleCode, table: Locale, overrides?: unknown): void {
  active = { code, table: withOverrides(table, overrides) };
}

/** Choose, fetch and use the language for the widget element `el` (or the page, without one). */
export async function setUpLocale(el: Element | null): Promise<LocaleCode> {
  const code = chooseLocale(el);
  let table = en;
  try {
    table = await loadLocale(code);
  } catch (err) {
    // A chunk that cannot be fetched must not cost the person the widget: English it is.
    console.error('Error', err);
  }
  applyLocale(table === en ? 'en' : code, table, readOverrides(el));
  return activeLocale();
}

/** The lang and dir a root of the widget's carries. */
export function languageAttributes(code: LocaleCode = active.code): { lang: LocaleCode; dir: 'rtl' | 'ltr' } {
  return { lang: code, dir: directionOf(code) };
}
