// Every code the server can answer a request or end a merge with is one the widget can say in
// each of its languages: a code added to the server's table without a sentence in the widget's
// tables fails here, since the widget would otherwise show the server's English to a reader of
// another language.
import { afterEach, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../src/server/errors.js';
import { LOCALES } from '../src/shared/locales.js';
import { en } from '../src/widget/i18n/en.js';
import { applyLocale, loadLocale } from '../src/widget/i18n/locale.js';
import { fileRefusal, serverMessage } from '../src/widget/i18n/server-words.js';

/** Codes that only stop the server from starting: no request or merge ever carries them. */
const START_ONLY: readonly ErrorCode[] = ['redis-policy', 'database-damaged'];

const answered = (Object.keys(ERRORS) as ErrorCode[]).filter((code) => !START_ONLY.includes(code));
const others = LOCALES.filter((code) => code !== 'en');

afterEach(() => applyLocale('en', en));

describe("the server's codes in the widget's languages", () => {
  it('the English table has a sentence for every code a request or a merge can end with', () => {
    const missing = answered.filter((code) => !Object.hasOwn(en.serverMessages, code));
    expect(missing).toEqual([]);
  });

  it.each(others)('%s shows its own sentence for each of them, never the English one', async (code) => {
    applyLocale(code, await loadLocale(code));
    for (const error of answered) {
      const shown = serverMessage(error, ERRORS[error].message);
      expect(shown, error).not.toBe(ERRORS[error].message);
      expect(shown, error).not.toBe(en.serverMessages[error as keyof typeof en.serverMessages]);
      expect(shown.trim(), error).not.toBe('');
    }
  });

  it('a refused upload names its file in the reader’s language', async () => {
    applyLocale('ru', await loadLocale('ru'));
    expect(fileRefusal('глава 1.mp3', 'disk-full', ERRORS['disk-full'].message)).toBe(
      'глава 1.mp3: Диск сервера заполнен; попробуйте позже.',
    );
  });

  it('English readers keep the server’s own sentence, which may say more (the limit it met)', () => {
    const said = 'This session already has 3 merges waiting or running; wait for one to end';
    expect(serverMessage('too-many-merges', said)).toBe(said);
  });
});
