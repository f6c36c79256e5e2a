// The widget's HTTP calls (docs/reference/http.md and docs/reference/widget.md): same-origin credentials and the
// page's CSRF token. A refusal rejects with an ApiError carrying the status and the server's words.
import {
  API,
  EXPIRED_ERROR_CODES,
  MERGE_SUCCESS,
  type AudioItem,
  type ErrorAnswer,
  type MergeStatusAnswer,
} from '../../shared/types.js';
import { serverMessage } from '../i18n/server-words.js';
import { parseItems } from '../store/state.js';

/** The token from <meta name="csrf-token">; empty when the page has none. */
export function csrfToken(doc: Document = document): string {
  return doc.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly url: string,
    readonly status: number,
    /** The server's `error` text, for a person; the raw body when it had none. */
    readonly reason: string,
    readonly code: string | undefined,
    /** A refusal of one input: the person's name of that file, when the server sent it. */
    readonly file?: string,
  ) {
    super(`${url} answered ${status}: ${reason}`);
  }
}

/** True when the answer means the page's session is gone (swept, or the token no longer matches). */
export function isExpired(err: unknown): boolean {
  return (
    err instanceof ApiError &&
    (err.status === 419 || (err.status === 403 && EXPIRED_ERROR_CODES.includes(err.code ?? '')))
  );
}

/** The words to show a person for a failed call, to go inside a sentence (no closing full stop). */
export function reasonOf(err: unknown): string {
  if (err instanceof ApiError) return serverMessage(err.code, err.reason).replace(/\.$/, '');
  return err instanceof Error ? err.message : String(err);
}

function jsonHeaders(): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
    'X-CSRF-TOKEN': csrfToken(),
  };
}

function errorOf(url: string, status: number, text: string): ApiError {
  try {
    const body = JSON.parse(text) as Partial<ErrorAnswer>;
    if (typeof body?.error === 'string') {
      const code = typeof body.code === 'string' ? body.code : undefined;
      return new ApiError(
        url,
        status,
        body.error,
        code,
        typeof body.file === 'string' ? body.file : undefined,
      );
    }
  } catch {
    // Not JSON: the text itself is the reason.
  }
  return new ApiError(url, status, text || `HTTP ${status}`, undefined);
}

export async function call(url: string, init: RequestInit): Promise<string> {
  const res = await fetch(url, { credentials: 'same-origin', ...init });
  const text = await res.text();
  if (!res.ok) throw errorOf(url, res.status, text);
  return text;
}

export function postJson(url: string, body: unknown, extra: RequestInit = {}): Promise<string> {
  return call(url, { method: 'POST', headers: jsonHeaders(), body: JSON.stringify(body), ...extra });
}

/** POST getDataJson {appid}; resolves with the session's items in their saved order. */
export async function fetchItems(appid: string): Promise<AudioItem[]> {
  return parseItems(await postJson(API.getDataJson, { appid }));
}

/**
 * POST mergemp3 {items, requestId} in the order given (and {options} when the person chose any);
 * `success` is true when the server answered "success". Rejects when the request fails.
 */
export async function requestMerge(
  items: AudioItem[],
  requestId: string,
  options?: Record<string, unknown>,
): Promise<{ success: boolean; answer: unknown }> {
  const text = await postJson(API.merge, options ? { items, requestId, options } : { items, requestId });
  let answer: unknown = text;
  try {
    answer = JSON.parse(text);
  } catch {
    // A bare word is still an answer; compare it as it came.
  }
  return { success: answer === MERGE_SUCCESS, answer };
}

/** POST deleteItem {id}. `keepalive` lets the call outlive the page (sent as it unloads). */
export async function deleteItem(id: string, opts: { keepalive?: boolean } = {}): Promise<void> {
  await postJson(API.deleteItem, { id }, opts.keepalive ? { keepalive: true } : {});
}

/** POST saveOrder {appid, ids}. */
export async function saveOrder(appid: string, ids: string[]): Promise<void> {
  await postJson(API.saveOrder, { appid, ids });
}

/** GET status: the session's latest merge. */
export async function mergeStatus(): Promise<MergeStatusAnswer> {
  return JSON.parse(
    await call(API.status, { method: 'GET', headers: { Accept: 'application/json' } }),
  ) as MergeStatusAnswer;
}

/** POST cancel {requestId}; a null requestId cancels the session's queued or running merge. */
export async function cancelMerge(requestId: string | null): Promise<void> {
  await postJson(API.cancel, requestId === null ? {} : { requestId });
}

/** POST deleteResult {id}. */
export async function deleteResult(id: string): Promise<void> {
  await postJson(API.deleteResult, { id });
}

/** GET choices: what the person last set for this appid (`{}` before anything). */
export async function fetchChoices(appid: string): Promise<Record<string, unknown>> {
  const text = await call(`${API.choices}?appid=${encodeURIComponent(appid)}`, {
    headers: { Accept: 'application/json' },
  });
  const parsed: unknown = JSON.parse(text);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : {};
}

/** GET tagDetails: what a merge of the list takes from its files' tags, by detail name. */
export async function fetchTagDetails(appid: string): Promise<Record<string, string>> {
  const text = await call(`${API.tagDetails}?appid=${encodeURIComponent(appid)}`, {
    headers: { Accept: 'application/json' },
  });
  const details: unknown = (JSON.parse(text) as { details?: unknown }).details;
  return details && typeof details === 'object' ? (details as Record<string, string>) : {};
}

/** POST the session's cover (multipart, one part `file`); rejects with the server's reason. */
export async function uploadCover(file: Blob, name: string): Promise<void> {
  const form = new FormData();
  form.append('file', file, name);
  await call(API.cover, {
    method: 'POST',
    headers: { Accept: 'application/json', 'X-CSRF-TOKEN': csrfToken() },
    body: form,
  });
}

/** Whether the session has a cover (GET cover answers 404 without one). */
export async function hasCover(): Promise<boolean | null> {
  // ?probe: "none" comes as a 204, which a browser does not log as an error (a 404 it does).
  const res = await fetch(`${API.cover}?probe=1`, { method: 'GET', credentials: 'same-origin' });
  if (res.status === 204 || res.status === 404) return false;
  return res.ok ? true : null;
}

/** POST deleteCover. */
export async function removeCover(): Promise<void> {
  await postJson(API.deleteCover, {});
}

export const httpApi = { fetchItems, requestMerge, deleteItem, saveOrder, mergeStatus, cancelMerge };
export type WidgetApi = typeof httpApi;
