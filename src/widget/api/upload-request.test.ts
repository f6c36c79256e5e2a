import { afterEach, describe, expect, it } from 'vitest';
import { en } from '../i18n/en.js';
import { applyLocale, loadLocale } from '../i18n/locale.js';
import { uploadOutcome } from './upload-request.js';

afterEach(() => applyLocale('en', en));

describe('reading the upload answer', () => {
  it('a stored file gives its items', () => {
    const item = { id: '1', sid: 's', newfilename: 'n', format: 'mp3', filename: 'a.mp3' };
    expect(uploadOutcome(200, JSON.stringify({ items: [item], errors: [] }), 'a.mp3')).toEqual({
      ok: true,
      items: [item],
    });
  });

  it("a refusal shows the server's message for that file", () => {
    const body = {
      error: 'notes.txt is not audio ffmpeg can read',
      errors: [{ filename: 'notes.txt', error: 'notes.txt is not audio ffmpeg can read' }],
    };
    expect(uploadOutcome(422, JSON.stringify(body), 'notes.txt')).toEqual({
      ok: false,
      message: 'notes.txt is not audio ffmpeg can read',
    });
    expect(uploadOutcome(200, JSON.stringify({ items: [], errors: body.errors }), 'notes.txt')).toEqual({
      ok: false,
      message: 'notes.txt is not audio ffmpeg can read',
    });
  });

  it('an answer without a message still names the file and the reason', () => {
    expect(uploadOutcome(413, '', 'big.wav')).toEqual({
      ok: false,
      message: 'big.wav is too large for the server.',
    });
    expect(uploadOutcome(500, '<html>', 'a.mp3')).toEqual({
      ok: false,
      message: 'a.mp3: the server refused the upload (HTTP 500).',
    });
    expect(uploadOutcome(0, '', 'a.mp3')).toEqual({
      ok: false,
      message: 'a.mp3: the upload did not reach the server (network error).',
    });
  });

  it("in another language a refusal with a code is said in it, naming the file; without a code, the server's words", async () => {
    applyLocale('ru', await loadLocale('ru'));
    const refusal = { error: 'notes.txt is not audio ffmpeg can read', code: 'not-audio' };
    expect(uploadOutcome(422, JSON.stringify(refusal), 'notes.txt')).toEqual({
      ok: false,
      message: 'notes.txt: В файле нет пригодного звука.',
    });
    expect(
      uploadOutcome(413, JSON.stringify({ error: 'big.wav is over 500 MB', code: 'tooLarge' }), 'big.wav'),
    ).toEqual({
      ok: false,
      message: 'big.wav: Файл слишком большой.',
    });
    expect(uploadOutcome(422, JSON.stringify({ error: 'notes.txt is odd' }), 'notes.txt')).toEqual({
      ok: false,
      message: 'notes.txt is odd',
    });
    expect(uploadOutcome(0, '', 'a.mp3')).toEqual({
      ok: false,
      message: 'a.mp3: файл не дошёл до сервера (ошибка сети).',
    });
  });
});
