// The widget's two HTTP calls (docs/api.md section 4): same-origin credentials and the page's CSRF token.
import { API, MERGE_SUCCESS, type AudioItem } from '../../shared/types.js';
import { parseItems } from '../store/state.js';

/** The token from <meta name="csrf-token">; empty when the page has none. */
export function csrfToken(doc: Document = document): string {
  return doc.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

function jsonHeaders(): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
    'X-CSRF-TOKEN': csrfToken(),
  };
}

async function postJson(url: string, body: unknown): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: jsonHeaders(),
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${text}`);
  return text;
}

/** POST getDataJson {appid}; resolves with the session's items in upload order. */
export async function fetchItems(appid: string): Promise<AudioItem[]> {
  return parseItems(await postJson(API.getDataJson, { appid }));
}

/**
 * POST mergemp3 {items} in the order given; resolves true when the server answered "success",
 * false for any other answer. Rejects when the request fails.
 */
export async function requestMerge(items: AudioItem[]): Promise<{ success: boolean; answer: unknown }> {
  const text = await postJson(API.merge, { items });
  let answer: unknown = text;
  try {
    answer = JSON.parse(text);
  } catch {
    // A bare word is still an answer; compare it as it came.
  }
  return { success: answer === MERGE_SUCCESS, answer };
}
