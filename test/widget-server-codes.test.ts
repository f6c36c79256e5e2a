// Every code the server can answer a request or end a merge with is one the widget can say in
// each of its languages: a code added to the server's table without a sentence in the widget's
// tables fails here, since the widget would otherwise show the server's English to a reader of
// another language.
import { afterEach, describe, expect, it } from 'vitest';
import { ERRORS, type ErrorCode } from '../src/server/errors.js';
import { LOCALES } from '../src/shared/locales.js';
import { en } from '../src/widget/i18n/en.js';
import { applyLocale, loadLocale } from '../src/widget/i18n/locale.js';
import { fileRefusal, mergeFailure, serverMessage } from '../src/widget/i18n/server-words.js';
import { endedRow, statusOfEvent, statusOfJob, statusPayload } from '../src/server/jobs/job-status.js';
import { parseStatus } from '../src/widget/store/status.js';
import { job } from './support/job-kit.js';

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

  it('a failure read back from its merge’s record (a reload) reads as its event did: in German, naming the file', async () => {
    applyLocale('de', await loadLocale('de'));
    const failure = {
      message: 'Could not merge: Aufnahme 2.wav is not usable audio',
      code: 'not-audio' as const,
      file: 'Aufnahme 2.wav',
    };
    const record = job('J1', 'S1', ['a'], 'app', { requestId: 'tab-1', ...endedRow('failed', failure) });
    const words = (payload: Record<string, unknown>) => {
      const status = parseStatus(payload)!;
      return mergeFailure(status.code, status.data, status.file);
    };
    const fromRecord = words({ ...statusPayload(statusOfJob(record)) });
    const fromEvent = words({
      ...statusPayload(
        statusOfEvent({
          jobId: 'J1',
          sid: 'S1',
          appid: 'app',
          requestId: 'tab-1',
          type: 'failed',
          retryable: false,
          ...failure,
        }),
      ),
    });
    expect(fromRecord).toBe(
      'Zusammenfügen nicht möglich: \u2068Aufnahme 2.wav\u2069 enthält kein verwendbares Audio.',
    );
    expect(fromRecord).toBe(fromEvent);
    // GET status gives the same fields as the payload, for the widget's reading of it.
    expect(statusOfJob(record)).toMatchObject({ state: 'failed', code: 'not-audio', file: 'Aufnahme 2.wav' });
  });
});
