// The languages the widget speaks, and how a language tag or an Accept-Language header picks one.
// Shared by the widget (data-locale, the page's lang) and the server (the host page).

export const LOCALES = ['en', 'de', 'fr', 'es', 'ru', 'ar'] as const;
export type LocaleCode = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: LocaleCode = 'en';

/** Languages written right to left. */
const RTL: readonly LocaleCode[] = ['ar'];

export const isRtl = (code: LocaleCode): boolean => RTL.includes(code);
export const directionOf = (code: LocaleCode): 'rtl' | 'ltr' => (isRtl(code) ? 'rtl' : 'ltr');

/** The supported language a tag names ("de-AT" -> "de", "AR" -> "ar"), or undefined. */
export function matchLocale(tag: string | null | undefined): LocaleCode | undefined {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return (LOCALES as readonly string[]).includes(primary) ? (primary as LocaleCode) : undefined;
}

/**
 * The best supported language of an Accept-Language header ("fr-CH, fr;q=0.9, en;q=0.8"):
 * the highest quality wins, the header's order breaks ties; none: the default.
 */
export function pickFromAcceptLanguage(header: string | undefined): LocaleCode {
  const ranked = (header ?? '')
    .split(',')
    .map((part, order) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { code: matchLocale(tag), q: q === undefined ? 1 : Number(q), order };
    })
    .filter((c): c is { code: LocaleCode; q: number; order: number } => c.code !== undefined && c.q > 0)
    .sort((a, b) => b.q - a.q || a.order - b.order);
  return ranked[0]?.code ?? DEFAULT_LOCALE;
}
