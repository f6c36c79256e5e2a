// What the server's answer to an upload (tus or multipart) says about one file.
import type { AudioItem } from '../../shared/types.js';

export type UploadOutcome = { ok: true; items: AudioItem[] } | { ok: false; message: string };

interface UploadAnswer {
  items?: AudioItem[];
  error?: string;
  errors?: Array<{ filename?: string; error?: string }>;
}

function parseAnswer(text: string): UploadAnswer {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null ? (v as UploadAnswer) : {};
  } catch {
    return {};
  }
}

/** What happened to `filename`, from the HTTP status and body (status 0: no answer at all). */
export function uploadOutcome(status: number, text: string, filename: string): UploadOutcome {
  if (status === 0)
    return { ok: false, message: `${filename}: the upload did not reach the server (network error).` };
  const body = parseAnswer(text);
  const mine = body.errors?.find((e) => e.filename === filename && e.error)?.error;
  if (status >= 200 && status < 300) {
    if (mine) return { ok: false, message: mine };
    const items = Array.isArray(body.items) ? body.items : [];
    if (items.length === 0 && body.errors?.length)
      return { ok: false, message: body.errors[0].error ?? `${filename} was not stored.` };
    return { ok: true, items };
  }
  if (status === 413 && !body.error)
    return { ok: false, message: `${filename} is too large for the server.` };
  return {
    ok: false,
    message: mine ?? body.error ?? `${filename}: the server refused the upload (HTTP ${status}).`,
  };
}
