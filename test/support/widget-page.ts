// The page a mounted widget test runs in: the host page's CSRF meta tag before each test; after
// it, the rendered tree unmounted, the page's storage emptied and every stubbed global and spy put
// back.
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

/** The CSRF token the page carries. */
const PAGE_CSRF = 'tok-123';

/** Call at the top of a test file. */
export function onWidgetPage(): void {
  beforeEach(() => {
    document.head.innerHTML = `<meta name="csrf-token" content="${PAGE_CSRF}">`;
  });
  afterEach(() => {
    cleanup();
    // What a page leaves for the next (a cancel's note, the cover mark) stays with its test.
    sessionStorage.clear();
    localStorage.clear();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}
