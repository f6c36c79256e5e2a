// @vitest-environment jsdom
// Which language the widget speaks, the forms its counts take, a host's own words, and the
// server's codes in the person's language.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCALES, pickFromAcceptLanguage } from '../../shared/locales.js';
import { en, type Locale } from './en.js';
import {
  activeLocale,
  applyLocale,
  chooseLocale,
  languageAttributes,
  loadLocale,
  setUpLocale,
  t,
  withOverrides,
} from './locale.js';
import { fileRefusal, mergeFailure, serverMessage } from './server-words.js';

afterEach(() => {
  applyLocale('en', en);
  document.documentElement.removeAttribute('lang');
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

function element(attrs: Record<string, string> = {}): HTMLElement {
  const el = document.createElement('div');
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  document.body.append(el);
  return el;
}

describe('choosing the language', () => {
  it('data-locale first, then the page lang, then English', () => {
    document.documentElement.lang = 'fr-CA';
    expect(chooseLocale(element({ 'data-locale': 'ru' }))).toBe('ru');
    expect(chooseLocale(element())).toBe('fr');
    expect(chooseLocale(null)).toBe('fr');
    expect(chooseLocale(element({ 'data-locale': 'tlh' }))).toBe('fr');
    document.documentElement.lang = 'ja';
    expect(chooseLocale(element())).toBe('en');
    document.documentElement.removeAttribute('lang');
    expect(chooseLocale(element({ 'data-locale': 'AR' }))).toBe('ar');
  });

  it('Accept-Language: the highest quality among the six, the order breaking ties', () => {
    expect(pickFromAcceptLanguage('de-DE,de;q=0.9,en;q=0.8')).toBe('de');
    expect(pickFromAcceptLanguage('ja, es;q=0.5, ru;q=0.7')).toBe('ru');
    expect(pickFromAcceptLanguage('fr;q=0, ar')).toBe('ar');
    expect(pickFromAcceptLanguage('zh-CN')).toBe('en');
    expect(pickFromAcceptLanguage(undefined)).toBe('en');
  });

  it('loads each language, and Arabic alone is right to left', async () => {
    for (const code of LOCALES) {
      const table = await loadLocale(code);
      expect(Object.keys(table).sort()).toEqual(Object.keys(en).sort());
      expect(languageAttributes(code)).toEqual({ lang: code, dir: code === 'ar' ? 'rtl' : 'ltr' });
    }
    expect((await loadLocale('de')).cancel).toBe('Abbrechen');
  });

  it('setUpLocale uses the chosen language with the host data-strings on top', async () => {
    const el = element({ 'data-locale': 'de', 'data-strings': '{"reload": "Seite neu laden"}' });
    expect(await setUpLocale(el)).toBe('de');
    expect(activeLocale()).toBe('de');
    expect(t().reload).toBe('Seite neu laden');
    expect(t().undo).toBe('Rückgängig');
  });
});

describe('counts', () => {
  it('Russian has three forms: 1, 2, 5 and 21', async () => {
    const ru = await loadLocale('ru');
    expect([1, 2, 5, 21].map((n) => ru.waitingAhead(n))).toEqual([
      'В очереди: перед вами 1 задание',
      'В очереди: перед вами 2 задания',
      'В очереди: перед вами 5 заданий',
      'В очереди: перед вами 21 задание',
    ]);
    expect([1, 2, 5, 21].map((n) => ru.batchSummary(n, n).split('.')[0])).toEqual([
      'Загружено: 1 файл',
      'Загружено: 2 файла',
      'Загружено: 5 файлов',
      'Загружено: 21 файл',
    ]);
  });

  it('Arabic has six: 0, 1, 2, 3, 11 and 100, in the digits Intl gives Arabic', async () => {
    const ar = await loadLocale('ar');
    const n = (v: number) => new Intl.NumberFormat('ar').format(v);
    expect([0, 1, 2, 3, 11, 100].map((n) => ar.waitingAhead(n))).toEqual([
      'في الانتظار: لا عمليات دمج أمامك',
      'في الانتظار: أمامك عملية دمج واحدة',
      'في الانتظار: أمامك عمليتا دمج',
      `في الانتظار: أمامك ${n(3)} عمليات دمج`,
      `في الانتظار: أمامك ${n(11)} عملية دمج`,
      `في الانتظار: أمامك ${n(100)} عملية دمج`,
    ]);
  });

  it('English and German singular and plural', async () => {
    expect([1, 3].map((n) => en.waitingAhead(n))).toEqual([
      'Waiting: 1 merge ahead of yours',
      'Waiting: 3 merges ahead of yours',
    ]);
    const de = await loadLocale('de');
    expect(de.batchSummary(1, 1)).toBe('1 Datei hochgeladen. Sie steht am Ende der Liste.');
    expect(de.batchSummary(2, 3)).toBe('2 von 3 Dateien hochgeladen. Sie stehen am Ende der Liste.');
  });

  it("a file's own chapters kept, in each language's forms", async () => {
    expect([1, 2].map((n) => en.keepsOwnChapters(n))).toEqual([
      'Keeps its own chapter',
      'Keeps its 2 chapters',
    ]);
    const ru = await loadLocale('ru');
    expect([1, 2, 5, 21].map((n) => ru.keepsOwnChapters(n))).toEqual([
      'Сохраняет свою 1 главу',
      'Сохраняет свои 2 главы',
      'Сохраняет свои 5 глав',
      'Сохраняет свою 21 главу',
    ]);
    const ar = await loadLocale('ar');
    const n = (v: number) => new Intl.NumberFormat('ar').format(v);
    expect([1, 2, 3, 11].map((v) => ar.keepsOwnChapters(v))).toEqual([
      'يحتفظ بفصله الوحيد',
      'يحتفظ بفصليه',
      `يحتفظ بفصوله الـ${n(3)}`,
      `يحتفظ بفصوله الـ${n(11)}`,
    ]);
    for (const code of ['de', 'fr', 'es'] as const)
      expect((await loadLocale(code)).keepsOwnChapters(3)).toMatch(/ 3 /);
  });

  it('numbers, durations, sizes and percentages as each language writes them', async () => {
    const [de, fr, ar] = await Promise.all([loadLocale('de'), loadLocale('fr'), loadLocale('ar')]);
    expect([en.duration(65), en.duration(3725), en.fileSize(1536), en.percent(35)]).toEqual([
      '1:05',
      '1:02:05',
      '1.5 kB',
      '35%',
    ]);
    expect([de.fileSize(5_000_000), de.percent(35)]).toEqual(['4,8 MB', '35\u00a0%']);
    expect(fr.fileSize(5_000_000)).toMatch(/^4,8\s?Mo$/);
    const n = new Intl.NumberFormat('ar', { minimumIntegerDigits: 2 });
    expect(ar.duration(65)).toBe(`${new Intl.NumberFormat('ar').format(1)}:${n.format(5)}`);
  });

  it('durations truncate to the second, as the player beside them shows', async () => {
    const ar = await loadLocale('ar');
    expect([en.duration(101.74), en.duration(59.6), en.duration(3725.9)]).toEqual([
      '1:41',
      '0:59',
      '1:02:05',
    ]);
    const n = new Intl.NumberFormat('ar', { minimumIntegerDigits: 2 });
    expect(ar.duration(101.74)).toBe(`${new Intl.NumberFormat('ar').format(1)}:${n.format(41)}`);
  });

  it("sizes under a kilobyte name their bytes in the count's plural, in every language", async () => {
    const [de, fr, es, ru, ar] = await Promise.all(
      (['de', 'fr', 'es', 'ru', 'ar'] as const).map((code) => loadLocale(code)),
    );
    // Intl puts a no-break space between number and unit in some languages.
    const sized = (table: Locale, n: number) => table.fileSize(n).replace(/\s/gu, ' ');
    expect([en.fileSize(0), en.fileSize(1), en.fileSize(19)]).toEqual(['0 bytes', '1 byte', '19 bytes']);
    expect([sized(de, 1), sized(de, 19)]).toEqual(['1 Byte', '19 Byte']);
    expect([sized(fr, 1), sized(fr, 19)]).toEqual(['1 octet', '19 octets']);
    expect([sized(es, 1), sized(es, 19)]).toEqual(['1 byte', '19 bytes']);
    const ruDigits = new Intl.NumberFormat('ru');
    expect([sized(ru, 2), sized(ru, 19)]).toEqual([
      `${ruDigits.format(2)} байта`,
      `${ruDigits.format(19)} байт`,
    ]);
    expect(ar.fileSize(19)).toContain('بايت');
    expect(en.fileSize(1536)).toBe('1.5 kB');
  });
});

describe("a host's own words (data-strings)", () => {
  it('replaces words and sentences, keeps the rest, and ignores keys it does not know', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const table: Locale = withOverrides(en, {
      undo: 'Bring it back',
      removed: 'Took {1} off the list.',
      rowLabel: '{1} is number {2} of {3}',
      formatLabels: { m4b: 'Audiobook (M4B)', nope: 'x' },
      notAKey: 'x',
      cancel: 42,
    });
    expect(table.undo).toBe('Bring it back');
    expect(table.removed('a.mp3')).toBe('Took a.mp3 off the list.');
    expect(table.rowLabel('a.mp3', 2, 5)).toBe('a.mp3 is number 2 of 5');
    expect(table.formatLabels).toMatchObject({ m4b: 'Audiobook (M4B)', mp3: 'MP3' });
    expect(table.formatLabels).not.toHaveProperty('nope');
    expect(table.cancel).toBe('Cancel merge');
    expect(table).not.toHaveProperty('notAKey');
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('a data-strings that is not JSON keeps the widget words', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await setUpLocale(element({ 'data-locale': 'es', 'data-strings': '{oops' }));
    expect(t().undo).toBe('Deshacer');
  });
});

describe("the server's codes in the person's language", () => {
  it('a known code speaks the language in use; an unknown one shows the server sentence', async () => {
    applyLocale('de', await loadLocale('de'));
    expect(serverMessage('rateLimited', 'Too many requests; wait a moment')).toBe(
      'Zu viele Anfragen. Warte einen Moment und versuch es dann noch einmal.',
    );
    expect(serverMessage('somethingNew', 'A new server sentence')).toBe('A new server sentence');
    expect(serverMessage(undefined, 'No code at all')).toBe('No code at all');
    expect(serverMessage('constructor', 'Not a table key')).toBe('Not a table key');
  });

  it('a merge failure about one file keeps the server sentence, which names it', async () => {
    applyLocale('fr', await loadLocale('fr'));
    const named = 'Could not merge: notes.txt is not audio (no audio stream)';
    expect(mergeFailure('not-audio', named)).toBe(named);
    expect(mergeFailure('interrupted', 'The server restarted…')).toBe(
      'Le serveur a redémarré pendant l’assemblage ; veuillez le relancer.',
    );
  });

  it('in English the server sentence stands (it says more), unless the host gave its own words', () => {
    const said = 'notes.txt is not audio (no audio stream)';
    expect(serverMessage('not-audio', said)).toBe(said);
    expect(fileRefusal('notes.txt', 'not-audio', said)).toBe(said);
    expect(serverMessage('not-audio', '')).toBe(en.serverMessages['not-audio']);
    applyLocale('en', en, { serverMessages: { 'not-audio': 'Not a sound file.' } });
    expect(fileRefusal('notes.txt', 'not-audio', said)).toBe('notes.txt: Not a sound file.');
  });

  it('an upload refusal names the file the widget sent', async () => {
    applyLocale('es', await loadLocale('es'));
    expect(fileRefusal('notes.txt', 'not-audio', 'notes.txt is not audio')).toBe(
      'notes.txt: El archivo no contiene audio utilizable.',
    );
  });
});

describe('where a merge stands, in every language', () => {
  it("names every stage, the file of how many, and a rough time left in the language's own units", async () => {
    const tables = await Promise.all(
      LOCALES.map(
        async (code) =>
          [code, code === 'en' ? en : ((await import(`./${code}.ts`)).default as Locale)] as const,
      ),
    );
    const minutes: Record<string, RegExp> = {
      en: /3 minutes/,
      de: /3 Minuten/,
      fr: /3 minutes/,
      es: /3 minutos/,
      ru: /3 минуты/,
      ar: /3 دقائق/,
    };
    for (const [code, table] of tables) {
      const stages = Object.values(table.stages);
      expect(new Set(stages).size, code).toBe(5);
      expect(table.fileOf(37, 500), code).toMatch(/37\D+500/);
      expect(table.timeLeft(172), code).toMatch(minutes[code]);
      // An hour and more says hours, and rounds the minutes up.
      expect(table.timeLeft(3900), code).toMatch(/5/);
    }
  });
});
