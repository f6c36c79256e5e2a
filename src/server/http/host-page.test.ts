import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, startTestApp, type TestApp } from '../../../test/support/server-harness.js';
import { renderHostPage } from './host-page.js';
import type { ResultRow } from '../data/store.js';

const result = (over: Partial<ResultRow>): ResultRow => ({
  id: 'r1',
  sid: 'SID',
  jobId: 'j1',
  file: 'r1.mp3',
  downloadName: 'merged.mp3',
  format: 'mp3',
  chapters: [],
  details: {},
  cover: null,
  duration: 75.4,
  size: 3 * 1024 * 1024,
  sources: ['intro.wav', 'talk.mp3'],
  createdAt: Date.UTC(2026, 10, 21, 14, 30),
  ...over,
});

const base = { csrfToken: 'TOKEN', sid: 'SID', appid: 'APPID', socketPort: 6001, maxFileMb: 500 };

describe('the host page', () => {
  it('holds the exact skeleton the widget and the no-JS form rely on', () => {
    const html = renderHostPage({ ...base, results: [] });
    expect(html).toContain('<meta name="csrf-token" content="TOKEN">');
    expect(html).toContain(
      '<section id="audio-merge-upload" class="audio-merge-upload" data-appid="APPID" data-max-file-mb="500">',
    );
    expect(html).toContain(
      '<form id="audio-merge-upload-form" method="post" action="/app/merge/upload" enctype="multipart/form-data">',
    );
    expect(html).toContain(
      '<input type="hidden" name="appid" value="APPID"> <input type="hidden" name="_csrf" value="TOKEN">',
    );
    expect(html).toContain(
      '<input id="audio-merge-file-input" type="file" name="files" multiple accept="audio/*,.mp3,.wav,.flac,.ogg,.oga,.opus,.m4a,.aac,.webm">',
    );
    expect(html).toContain('<ul id="audio-merge-upload-list" class="audio-merge-upload-list"></ul>');
    expect(html).toContain(
      '<div id="audio-merge-tool" data-appid="APPID" data-sid="SID" data-port="6001" data-locale="en" data-make-label="Make {format}" data-title="Drag the files into the order you want" data-formats="mp3 m4b m4a opus ogg flac wav"></div>',
    );
    expect(html).toContain('<section id="audio-merge-results" class="audio-merge-results">');
    expect(html).toContain('No merged files yet');
    expect(html).toContain('<script type="module" src="/widget/audio-merge.js"></script>');
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<html lang="en" dir="ltr">');
  });

  it('speaks the language it is given, and tells the widget: Arabic right to left', () => {
    const ar = renderHostPage({ ...base, results: [result({})], locale: 'ar' });
    expect(ar).toContain('<html lang="ar" dir="rtl">');
    expect(ar).toContain(
      'data-locale="ar" data-make-label="إنشاء {format}" data-title="اسحب الملفات إلى الترتيب الذي تريده"',
    );
    expect(ar).toContain('<h2>الملفات المدموجة</h2>');
    expect(ar).toContain('download>تنزيل</a>');
    const de = renderHostPage({ ...base, results: [], locale: 'de' });
    expect(de).toContain('<html lang="de" dir="ltr">');
    expect(de).toContain('Bis zu 500 MB pro Datei');
    expect(de).toContain('Noch keine zusammengefügten Dateien.');
    expect(de).not.toContain('No merged files yet');
  });

  it('shows each result in its format, with its chapters as buttons that carry their start', () => {
    const html = renderHostPage({
      ...base,
      results: [
        result({
          id: 'book',
          format: 'm4b',
          file: 'book.m4b',
          chapters: [
            { title: 'One <1>', start: 0, end: 61.5 },
            { title: 'Two', start: 61.5, end: 75.4 },
          ],
        }),
      ],
    });
    expect(html).toContain('<article class="audio-merge-result" data-result-id="book" data-format="m4b">');
    expect(html).toContain('src="/results/SID/book.m4b"');
    expect(html).toContain('<span class="audio-merge-format" dir="ltr">M4B</span>');
    expect(html).toContain(
      '<button type="button" class="audio-merge-chapter" data-start="61.5"><bdi class="audio-merge-chapter-time" dir="ltr">1:01</bdi> <bdi>Two</bdi></button>',
    );
    expect(html).toContain('One &lt;1&gt;');
    // The chapters sit under a heading of their own.
    expect(html).toMatch(
      /<h4 class="audio-merge-chapters-heading">Chapters<\/h4>\s*<ol class="audio-merge-chapters"/,
    );
    const bare = renderHostPage({ ...base, results: [result({})] });
    expect(bare).not.toContain('class="audio-merge-chapters"');
    expect(bare).not.toContain('class="audio-merge-chapters-heading"');
  });

  it("heads each result with its book's title, its cover and who wrote and reads it, in the page's language", () => {
    const book = result({
      id: 'r<1>',
      format: 'm4b',
      downloadName: 'Der Berg 2026-11-21 1430.m4b',
      details: {
        title: 'Der "Berg" & <Tal>',
        artist: 'Thomas Mann',
        composer: 'Gert Westphal',
        genre: 'Roman',
      },
      cover: 'r1-cover.png',
      chapters: [{ title: 'Eins', start: 0, end: 75.4 }],
    });
    const html = renderHostPage({ ...base, results: [book], locale: 'de' });
    const head = /<div class="audio-merge-result-head">(.*?)<\/div><\/div>/s.exec(html)?.[1] ?? '';
    expect(head).toContain(
      '<img class="audio-merge-result-cover" src="/app/merge/resultCover/r%3C1%3E" alt="Cover von Der &quot;Berg&quot; &amp; &lt;Tal&gt;"',
    );
    expect(head).toContain(
      '<h3 class="audio-merge-result-title" dir="auto">Der &quot;Berg&quot; &amp; &lt;Tal&gt;</h3>',
    );
    expect(head).toContain('<dt>Autor</dt><dd dir="auto">Thomas Mann</dd>');
    expect(head).toContain('<dt>Sprecher</dt><dd dir="auto">Gert Westphal</dd>');
    expect(html).toMatch(/<h4 class="audio-merge-chapters-heading">Kapitel<\/h4>/);
    // The heading comes first in the card, the chapters after the player.
    expect(html.indexOf('<h3 class="audio-merge-result-title"')).toBeLessThan(html.indexOf('<audio'));
    expect(html.indexOf('<audio')).toBeLessThan(html.indexOf('<h4 class="audio-merge-chapters-heading"'));

    const plain = renderHostPage({
      ...base,
      results: [result({ downloadName: 'merged-2026-11-21-1430.mp3' })],
    });
    expect(plain).toContain(
      '<h3 class="audio-merge-result-title audio-merge-result-untitled" dir="auto">merged-2026-11-21-1430.mp3</h3>',
    );
    expect(plain).not.toContain('<img class="audio-merge-result-cover"');
    expect(plain).not.toContain('<dl class="audio-merge-result-people"');
  });

  it('speaks of the cover, author and narrator in every language the page speaks', () => {
    for (const locale of ['en', 'de', 'fr', 'es', 'ru', 'ar'] as const) {
      const html = renderHostPage({
        ...base,
        locale,
        results: [result({ details: { title: 'T', artist: 'A', composer: 'N' }, cover: 'c.jpg' })],
      });
      const alt = /class="audio-merge-result-cover" [^>]*alt="([^"]+)"/.exec(html)?.[1];
      expect(alt, locale).toMatch(/T/);
      expect(alt, locale).not.toBe('T');
      const labels = Array.from(html.matchAll(/<dt>([^<]+)<\/dt>/g), (m) => m[1]);
      expect(labels, locale).toHaveLength(2);
      expect(new Set(labels).size, locale).toBe(2);
      if (locale !== 'en') expect(labels, locale).not.toEqual(['Author', 'Narrator']);
    }
  });

  it('lists results newest first as given, with player, download link, duration, size, time and sources in order', () => {
    const html = renderHostPage({
      ...base,
      results: [result({ id: 'newer', sources: ['b.mp3', 'a.mp3'] }), result({ id: 'older' })],
    });
    expect(html).not.toContain('No merged files yet');
    expect(
      html.match(/<article class="audio-merge-result" data-result-id="[^"]+" data-format="mp3">/g),
    ).toEqual([
      '<article class="audio-merge-result" data-result-id="newer" data-format="mp3">',
      '<article class="audio-merge-result" data-result-id="older" data-format="mp3">',
    ]);
    expect(html.indexOf('/results/SID/newer.mp3')).toBeLessThan(html.indexOf('/results/SID/older.mp3'));
    expect(html).toContain('<audio controls preload="metadata" src="/results/SID/newer.mp3"></audio>');
    expect(html).toContain(
      '<a class="audio-merge-download" href="/results/SID/newer.mp3?download=1" download>Download</a>',
    );
    expect(html).toContain('1:15');
    expect(html).toContain('3.0 MB');
    expect(html).toContain('2026-11-21 14:30 UTC');
    expect(html).toContain(
      '<ol class="audio-merge-sources" data-label="Joined from"><li><bdi>b.mp3</bdi></li><li><bdi>a.mp3</bdi></li></ol>',
    );
  });

  it('escapes everything it shows', () => {
    const html = renderHostPage({
      ...base,
      csrfToken: '"><script>alert(1)</script>',
      results: [result({ sources: ['<img src=x onerror=alert(1)>.mp3', 'a&b "c".wav'] })],
    });
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;.mp3');
    expect(html).toContain('a&amp;b &quot;c&quot;.wav');
  });
});

describe('GET / with realtime on', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ realtime: true });
  });
  afterAll(async () => {
    await t.dispose();
  });

  it("puts the realtime server's real port on the widget element, and the page is not cached", async () => {
    expect(t.realtime.port).toBeGreaterThan(0);
    const s = await openSession(t.app);
    expect(s.html).toContain(`data-port="${t.realtime.port}"`);
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toBe("frame-ancestors 'self'");
  });

  it("follows the browser's Accept-Language among the six, and says the page varies by it", async () => {
    const s = await openSession(t.app);
    const page = (acceptLanguage?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/',
        headers: { cookie: s.cookie, ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) },
      });
    const ru = await page('ru-RU,ru;q=0.9,en;q=0.5');
    expect(ru.body).toContain('<html lang="ru" dir="ltr">');
    expect(ru.body).toContain('data-locale="ru"');
    expect(ru.headers['content-language']).toBe('ru');
    expect(ru.headers.vary).toMatch(/Accept-Language/i);
    const ar = await page('ja;q=0.9, ar;q=0.8');
    expect(ar.body).toContain('<html lang="ar" dir="rtl">');
    expect(ar.body).toContain('data-locale="ar"');
    expect((await page('zh-CN')).body).toContain('<html lang="en" dir="ltr">');
    expect((await page()).body).toContain('data-locale="en"');
  });
});
