// @vitest-environment jsdom
// The cover picker as a person sees it: the page's words on a button-like label, never the
// browser's own "Choose File / No file chosen", and still a file input a keyboard reaches.
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../../test/support/widget-fakes.js';
import { en } from '../i18n/en.js';
import { applyLocale, loadLocale } from '../i18n/locale.js';
import { BookDetails } from './BookDetails.js';

/** The session's cover on the server: POST cover sets it, GET answers it, or without one 404 (204 when asked with ?probe). */
let stored: boolean;
let calls: Array<{ url: string; method: string; body: unknown }>;

beforeEach(() => {
  stored = false;
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ url: String(input), method, body: init.body });
      if (method === 'POST') stored = true;
      if (method === 'POST' || stored) return method === 'POST' ? json({ ok: true }) : new Response('png');
      return String(input).endsWith('?probe=1')
        ? new Response(null, { status: 204 })
        : json({ error: 'No cover' }, 404);
    }),
  );
});
afterEach(() => {
  cleanup();
  localStorage.clear();
  applyLocale('en', en);
  vi.unstubAllGlobals();
});

async function openCover() {
  render(<BookDetails value={{}} onChange={() => {}} withCover />);
  fireEvent.click(screen.getByRole('button', { name: en.detailsToggle }));
  await act(() => Promise.resolve());
  return document.querySelector<HTMLInputElement>('.audio-merge-cover input[type="file"]')!;
}

describe('the cover picker', () => {
  it("hides the browser's file button and offers the page's words, on a label that opens it", async () => {
    const input = await openCover();
    expect(input).toHaveClass('audio-merge-visually-hidden');
    // Hidden to the eye only: focusable, named by its label, which a click on opens.
    expect(input).not.toHaveAttribute('tabindex');
    expect(input).not.toHaveAttribute('hidden');
    const label = input.closest('label')!;
    expect(label).toHaveTextContent('CoverChoose an image');
    expect(screen.getByLabelText(/Cover/)).toBe(input);
    input.focus();
    expect(input).toHaveFocus();

    const image = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'front.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [image] } });
    await waitFor(() => expect(document.querySelector('.audio-merge-cover-preview')).not.toBeNull());
    const post = calls.find((c) => c.url === '/app/merge/cover' && c.method === 'POST')!;
    expect((post.body as FormData).get('file')).toBeInstanceOf(File);
  });

  it('asks once on a page that knows nothing of a cover (a probe, answered 204: no 404 in the console); later pages do not ask', async () => {
    await openCover();
    await waitFor(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(1));
    expect(calls[0].url).toBe('/app/merge/cover?probe=1');
    await act(() => Promise.resolve());
    expect(document.querySelector('.audio-merge-cover-preview')).toBeNull();
    cleanup();
    await openCover();
    await act(() => Promise.resolve());
    expect(calls).toHaveLength(1);
  });

  it('a cover set here is asked for on the next page and shown; one gone from the server is forgotten', async () => {
    const input = await openCover();
    const image = new File([new Uint8Array([1])], 'front.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [image] } });
    await waitFor(() => expect(document.querySelector('.audio-merge-cover-preview')).not.toBeNull());
    cleanup();
    calls = [];
    await openCover();
    await waitFor(() => expect(document.querySelector('.audio-merge-cover-preview')).not.toBeNull());
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(1);

    // The session was swept: one 404, then no more asking.
    cleanup();
    stored = false;
    calls = [];
    await openCover();
    await waitFor(() => expect(calls).toHaveLength(1));
    await act(() => Promise.resolve());
    cleanup();
    await openCover();
    expect(calls).toHaveLength(1);
  });

  it('a failed answer other than 404 forgets nothing: a set cover is asked for again on the next page', async () => {
    const input = await openCover();
    fireEvent.change(input, { target: { files: [new File([new Uint8Array([1])], 'front.png')] } });
    await waitFor(() => expect(document.querySelector('.audio-merge-cover-preview')).not.toBeNull());
    cleanup();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ error: 'Busy' }, 503)),
    );
    await openCover();
    await act(() => Promise.resolve());
    cleanup();
    calls = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
        calls.push({ url: String(input), method: init.method ?? 'GET', body: init.body });
        return new Response('png');
      }),
    );
    await openCover();
    await waitFor(() => expect(document.querySelector('.audio-merge-cover-preview')).not.toBeNull());
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(1);
  });

  it("speaks the page's language on a German page", async () => {
    applyLocale('de', await loadLocale('de'));
    render(<BookDetails value={{}} onChange={() => {}} withCover />);
    fireEvent.click(screen.getByRole('button', { name: 'Angaben zum Buch' }));
    await act(() => Promise.resolve());
    expect(document.querySelector('.audio-merge-cover-choose')).toHaveTextContent('Bild auswählen');
  });
});
