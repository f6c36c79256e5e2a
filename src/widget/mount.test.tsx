// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, fakeIo, item, json, stackRows } from '../../test/support/widget-fakes.js';

vi.mock('socket.io-client', () => ({ io: vi.fn(() => fakeIo()) }));

function hostPage() {
  document.head.innerHTML = '<meta name="csrf-token" content="tok-123">';
  document.body.innerHTML = `<div id="audio-merge-tool" data-appid="app-7" data-sid="sid-1" data-port="6123"
    data-make-label="Join them" data-title="Put the files in order"></div>`;
}

beforeEach(() => {
  vi.resetModules();
});
afterEach(async () => {
  const { unmount } = await import('./mount.js');
  act(() => unmount());
  document.head.innerHTML = '';
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('mounting', () => {
  it('mounts where #audio-merge-tool is and reads its attributes', async () => {
    hostPage();
    const f = fakeFetch({ '/app/merge/getDataJson': () => json([item('1', 'intro.mp3')]) });
    vi.stubGlobal('fetch', f.fn);
    await act(async () => {
      await import('./main.js');
    });
    expect(await screen.findByText('intro.mp3')).toBeInTheDocument();
    expect(screen.getByText('Put the files in order')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join them' })).toBeEnabled();
    // The widget renders into a wrapper of its own inside the host element, with its stylesheet.
    const wrapper = document.querySelector('#audio-merge-tool > .audio-merge-root');
    expect(wrapper).not.toBeNull();
    expect(wrapper!.querySelector('.audio-merge-row')).not.toBeNull();
    expect(document.querySelectorAll('style#audio-merge-styles')).toHaveLength(1);
  });

  it("speaks the element's data-locale, else the page's lang, with the language's direction", async () => {
    hostPage();
    document.getElementById('audio-merge-tool')!.dataset.locale = 'ru';
    vi.stubGlobal('fetch', fakeFetch({ '/app/merge/getDataJson': () => json([item('1', 'intro.mp3')]) }).fn);
    await act(async () => {
      await import('./main.js');
    });
    expect(await screen.findByRole('button', { name: 'Убрать intro.mp3' })).toBeInTheDocument();
    const wrapper = document.querySelector('.audio-merge-root')!;
    expect([wrapper.getAttribute('lang'), wrapper.getAttribute('dir')]).toEqual(['ru', 'ltr']);
  });

  it('an Arabic page (<html lang>) gets the widget right to left, file names isolated', async () => {
    hostPage();
    document.documentElement.lang = 'ar';
    vi.stubGlobal('fetch', fakeFetch({ '/app/merge/getDataJson': () => json([item('1', 'intro.mp3')]) }).fn);
    try {
      await act(async () => {
        await import('./main.js');
      });
      expect(await screen.findByRole('button', { name: 'إزالة intro.mp3' })).toBeInTheDocument();
      const wrapper = document.querySelector('.audio-merge-root')!;
      expect([wrapper.getAttribute('lang'), wrapper.getAttribute('dir')]).toEqual(['ar', 'rtl']);
      expect(screen.getByText('intro.mp3').closest('bdi.audio-merge-filename')).not.toBeNull();
      expect(document.querySelector('.audio-merge-position')!.tagName).toBe('BDI');
    } finally {
      document.documentElement.removeAttribute('lang');
    }
  });

  it('data-sound="on" offers the sound options with one format; without it, nothing beside make', async () => {
    const { readConfig } = await import('./mount.js');
    const el = document.createElement('div');
    expect(readConfig(el)).toMatchObject({ formats: ['mp3'], sound: false, makeLabel: 'Make MP3' });
    el.dataset.sound = 'on';
    el.dataset.formats = 'flac';
    expect(readConfig(el)).toMatchObject({ formats: ['flac'], sound: true });
    el.dataset.sound = 'yes please';
    expect(readConfig(el).sound).toBe(false);

    hostPage();
    document.getElementById('audio-merge-tool')!.dataset.sound = 'on';
    vi.stubGlobal('fetch', fakeFetch({ '/app/merge/getDataJson': () => json([item('1', 'intro.mp3')]) }).fn);
    await act(async () => {
      await import('./main.js');
    });
    await screen.findByText('intro.mp3');
    expect(screen.getByRole('button', { name: 'Sound options' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByLabelText('Format')).toBeNull();
    // One format: the host's label as it is.
    expect(screen.getByRole('button', { name: 'Join them' })).toBeEnabled();
  });

  it("the host page's merged results get players and download links a screen reader can tell apart", async () => {
    hostPage();
    document.body.insertAdjacentHTML(
      'beforeend',
      `<section class="audio-merge-results"><article class="audio-merge-result">
        <audio controls preload="metadata" src="/results/sid-1/r1.mp3"></audio>
        <p class="audio-merge-result-meta"><a class="audio-merge-download" href="/results/sid-1/r1.mp3?download=1" download>Download</a>
        <time datetime="2026-11-22T01:22:00.000Z">2026-11-22 01:22 UTC</time></p>
        <ol class="audio-merge-sources"><li>intro.mp3</li><li>talk.wav</li></ol></article></section>`,
    );
    vi.stubGlobal('fetch', fakeFetch({ '/app/merge/getDataJson': () => json([]) }).fn);
    await act(async () => {
      await import('./main.js');
    });
    // The time is shown in the browser's zone (results.test.ts); the names carry it as shown.
    const shown = document.querySelector('.audio-merge-result time')!.textContent;
    expect(shown).not.toBe('2026-11-22 01:22 UTC');
    expect(document.querySelector('.audio-merge-result audio')).toHaveAttribute(
      'aria-label',
      `Play merged MP3 of intro.mp3 and 1 more, ${shown}`,
    );
    expect(screen.getByRole('link', { name: /^Download merged MP3 of intro\.mp3/ })).toBeInTheDocument();
  });

  it('a choice made just before make is kept: saveChoices is sent before the merge is asked for', async () => {
    hostPage();
    document.getElementById('audio-merge-tool')!.dataset.sound = 'on';
    const f = fakeFetch({
      '/app/merge/getDataJson': () => json([item('1', 'intro.mp3')]),
      '/app/merge/saveChoices': () => json({ ok: true }),
      '/app/merge/mergemp3': () => new Promise<Response>(() => {}),
    });
    vi.stubGlobal('fetch', f.fn);
    await act(async () => {
      await import('./main.js');
    });
    await screen.findByText('intro.mp3');
    fireEvent.click(screen.getByRole('button', { name: 'Sound options' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Trim silence' }));
    fireEvent.click(screen.getByRole('button', { name: 'Join them' }));
    await waitFor(() => expect(f.calls.map((c) => c.url)).toContain('/app/merge/mergemp3'));
    const urls = f.calls.map((c) => c.url);
    const saved = urls.indexOf('/app/merge/saveChoices');
    expect(saved).toBeGreaterThanOrEqual(0);
    expect(saved).toBeLessThan(urls.indexOf('/app/merge/mergemp3'));
    expect(f.calls[saved].body).toEqual({ appid: 'app-7', choices: { trimSilence: true } });
    expect(f.calls.find((c) => c.url === '/app/merge/mergemp3')!.body).toMatchObject({
      options: { trimSilence: true },
    });
  });

  it('a page without the element gets nothing and no errors', async () => {
    document.body.innerHTML = '<main><p>Unrelated page</p></main>';
    const f = fakeFetch({});
    vi.stubGlobal('fetch', f.fn);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await act(async () => {
      await import('./main.js');
    });
    expect(document.body.innerHTML).toBe('<main><p>Unrelated page</p></main>');
    expect(document.getElementById('audio-merge-styles')).toBeNull();
    expect(f.fn).not.toHaveBeenCalled();
    expect(errors).not.toHaveBeenCalled();
  });

  it('asks getDataJson for its appid with the CSRF header and same-origin credentials', async () => {
    hostPage();
    const f = fakeFetch({ '/app/merge/getDataJson': () => json([]) });
    vi.stubGlobal('fetch', f.fn);
    const { mount } = await import('./mount.js');
    await act(async () => mount(document.getElementById('audio-merge-tool')!));
    await waitFor(() => expect(f.calls.filter((c) => c.url === '/app/merge/getDataJson')).toHaveLength(1));
    const call = f.calls.find((c) => c.url === '/app/merge/getDataJson')!;
    expect(call.url).toBe('/app/merge/getDataJson');
    expect(call.init.method).toBe('POST');
    expect(call.init.credentials).toBe('same-origin');
    expect(call.body).toEqual({ appid: 'app-7' });
    const headers = call.init.headers as Record<string, string>;
    expect(headers['X-CSRF-TOKEN']).toBe('tok-123');
    expect(headers['Content-Type']).toBe('application/json');
  });

  it('logs a failed getDataJson as Error and says the list could not be loaded', async () => {
    hostPage();
    const f = fakeFetch({ '/app/merge/getDataJson': () => json({ error: 'no session' }, 403) });
    vi.stubGlobal('fetch', f.fn);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { mount } = await import('./mount.js');
    await act(async () => mount(document.getElementById('audio-merge-tool')!));
    await waitFor(() => expect(errors).toHaveBeenCalledWith('Error', expect.any(Error)));
    expect(
      screen.getByText('Your files could not be loaded: no session. Reload the page to try again.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Nothing to merge yet/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Join them' })).toBeDisabled();
  });

  it('re-mounting fetches again, so newly uploaded items appear', async () => {
    hostPage();
    let answer = [item('1', 'one.mp3')];
    const f = fakeFetch({ '/app/merge/getDataJson': () => json(answer) });
    vi.stubGlobal('fetch', f.fn);
    const { mount, remount } = await import('./mount.js');
    await act(async () => mount(document.getElementById('audio-merge-tool')!));
    await screen.findByText('one.mp3');
    answer = [item('1', 'one.mp3'), item('2', 'two.mp3')];
    await act(async () => remount());
    expect(await screen.findByText('two.mp3')).toBeInTheDocument();
    expect(document.querySelectorAll('.audio-merge-root')).toHaveLength(1);
    expect(document.querySelectorAll('.audio-merge-row')).toHaveLength(2);
  });

  it('files uploaded after a reorder join the end; the order the person chose stays', async () => {
    hostPage();
    let answer = [item('1', 'one.mp3'), item('2', 'two.mp3')];
    const f = fakeFetch({
      '/app/merge/getDataJson': () => json(answer),
      '/app/merge/saveOrder': () => json({ ok: true }),
    });
    vi.stubGlobal('fetch', f.fn);
    stackRows();
    const { mount, remount } = await import('./mount.js');
    await act(async () => mount(document.getElementById('audio-merge-tool')!));
    const row = await screen.findByRole('listitem', { name: /one\.mp3/ });
    // Keyboard: lift the first row, move it down one place, drop it.
    row.focus();
    const tick = () => act(() => new Promise((r) => setTimeout(r, 0)));
    for (const key of [' ', 'ArrowDown', ' ']) {
      fireEvent.keyDown(document.activeElement ?? row, { code: key === ' ' ? 'Space' : key, key });
      await tick();
    }
    const names = () =>
      Array.from(document.querySelectorAll('.audio-merge-filename')).map((e) => e.textContent);
    await waitFor(() => expect(names()).toEqual(['two.mp3', 'one.mp3']));
    answer = [item('1', 'one.mp3'), item('2', 'two.mp3'), item('3', 'three.mp3')];
    await act(async () => remount());
    await screen.findByText('three.mp3');
    expect(names()).toEqual(['two.mp3', 'one.mp3', 'three.mp3']);
    expect(document.querySelectorAll('.audio-merge-root')).toHaveLength(1);
  });

  it('while the upload area sends files the list says so, and make still works on what is listed', async () => {
    hostPage();
    vi.stubGlobal('fetch', fakeFetch({ '/app/merge/getDataJson': () => json([item('1', 'one.mp3')]) }).fn);
    const { mount, setUploading } = await import('./mount.js');
    await act(async () => mount(document.getElementById('audio-merge-tool')!));
    await screen.findByText('one.mp3');
    act(() => setUploading(true));
    expect(screen.getByText('Uploading: new files join the end of the list.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join them' })).toBeEnabled();
    act(() => setUploading(false));
    expect(screen.queryByText(/Uploading:/)).toBeNull();
  });
});
