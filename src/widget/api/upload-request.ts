// What the server's answer to an upload (tus or multipart) says about one file.
import type { AudioItem } from '../../shared/types.js';
import { t } from '../i18n/locale.js';
import { fileRefusal } from '../i18n/server-words.js';

export type UploadOutcome = { ok: true; items: AudioItem[] } | { ok: false; message: string };

interface Refusal {
  filename?: string;
  error?: string;
  code?: string;
}

interface UploadAnswer extends Refusal {
  items?: AudioItem[];
  errors?: Refusal[];
}

function parseAnswer(text: string): UploadAnswer {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null ? (v as UploadAnswer) : {};
  } catch {
    return {};
  }
}

/** A refusal in the person's language when its code is known, else the server's words. */
const said = (filename: string, r: Refusal, otherwise: string) =>
  fileRefusal(filename, typeof r.code === 'string' ? r.code : undefined, r.error ?? otherwise);

/** What happened to `filename`, from the HTTP status and body (status 0: no answer at all). */
export function uploadOutcome(status: number, text: string, filename: string): UploadOutcome {
  if (status === 0) return { ok: false, message: t().uploadUnreached(filename) };
  const body = parseAnswer(text);
  const mine = body.errors?.find((e) => e.filename === filename && e.error);
  if (status >= 200 && status < 300) {
    if (mine) return { ok: false, message: said(filename, mine, '') };
    const items = Array.isArray(body.items) ? body.items : [];
    if (items.length === 0 && body.errors?.length)
      return { ok: false, message: said(filename, body.errors[0], t().uploadNotStored(filename)) };
    return { ok: true, items };
  }
  if (status === 413 && !body.error) return { ok: false, message: t().uploadTooLarge(filename) };
  return {
    ok: false,
    message: said(filename, mine ?? body, t().uploadHttpRefused(filename, status)),
  };
}
