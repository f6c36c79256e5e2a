// One file sent with tus (docs/reference/uploads.md): resumable across dropped connections (retries with
// back-off, resuming at the server's offset) and page reloads (tus-js-client's fingerprint and
// URL storage). A 429 waits for the server's Retry-After and goes on; it is never a failure.
import {
  Upload,
  type DetailedError,
  type HttpRequest,
  type HttpResponse,
  type UploadOptions,
} from 'tus-js-client';
import { t } from '../i18n/locale.js';
import { API } from '../../shared/types.js';
import { uploadOutcome, type UploadOutcome } from './upload-request.js';

/** Back-off for a connection that dropped or a server that failed; then the file is given up. */
export const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000, 15_000, 30_000, 30_000, 30_000, 30_000];
/** When a 429 comes without a usable Retry-After. */
const DEFAULT_RATE_WAIT_MS = 5000;

export interface TusUploadRequest {
  file: File;
  appid: string;
  csrf: string;
  /** Fraction 0-1 of the file the server has. */
  onProgress?: (fraction: number) => void;
  /**
   * Resolves when this file may be completed: the request carrying its last bytes waits for it,
   * so files finish (and become items) in the order they were chosen.
   */
  mayFinish?: () => Promise<void>;
  /** tus-js-client options for tests (httpStack, urlStorage, fileReader). */
  tusOptions?: Partial<UploadOptions>;
}

export interface TusUploadHandle {
  done: Promise<UploadOutcome>;
  abort(): void;
}

/** Seconds in Retry-After (or an HTTP date), as milliseconds. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number {
  if (!header) return DEFAULT_RATE_WAIT_MS;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isFinite(at) ? Math.max(0, at - now) : DEFAULT_RATE_WAIT_MS;
}

const statusOf = (err: Error): number => (err as DetailedError).originalResponse?.getStatus() ?? 0;

/** Network failures and server errors are retried; refusals are not, nor a 429 (waited for apart). */
function shouldRetry(err: DetailedError): boolean {
  const status = statusOf(err);
  if (status === 0 || status >= 500) return true;
  // A whole file the server could not store yet (HEAD 423): asked again, it finishes it then.
  if (status === 423) return true;
  // An offset conflict: tus asks the offset again and resumes.
  return status === 409 && err.originalRequest?.getMethod() === 'PATCH';
}

/**
 * What the server answered for the file: the body of the request that carried its last byte, or,
 * when a HEAD found it complete (a resumed upload the server had whole), the outcome the server
 * puts in that HEAD's headers. A success that names no item is a failure said as one: the file
 * would otherwise silently never appear.
 */
export function tusOutcome(res: HttpResponse | null | undefined, filename: string): UploadOutcome {
  let status = res?.getStatus() ?? 0;
  let body = res?.getBody() ?? '';
  const told = res?.getHeader('Upload-Outcome');
  if (told && !body) {
    try {
      body = decodeURIComponent(told);
      status = Number(res?.getHeader('Upload-Outcome-Status')) || status;
    } catch {
      // Not ours to read: the answer as it came.
    }
  }
  const outcome = uploadOutcome(status, body, filename);
  if (outcome.ok && outcome.items.length === 0) return { ok: false, message: t().uploadNoItem(filename) };
  return outcome;
}

/**
 * The request that carries the last byte waits for `mayFinish`. Each file is sent as two
 * requests (all but its last byte, then the last byte), so the bulk of several files goes up at
 * once while only the finishing is in order.
 */
function finishGate(file: File, chunkSize: number, mayFinish?: () => Promise<void>) {
  return async (req: HttpRequest) => {
    if (!mayFinish || req.getMethod() !== 'PATCH') return;
    const offset = Number(req.getHeader('Upload-Offset'));
    if (offset + chunkSize >= file.size) await mayFinish();
  };
}

export function startTusUpload(r: TusUploadRequest): TusUploadHandle {
  let upload: Upload | undefined;
  let stopped = false;
  let rateTimer: ReturnType<typeof setTimeout> | undefined;
  const chunkSize = r.file.size > 1 ? r.file.size - 1 : Number.POSITIVE_INFINITY;

  const done = new Promise<UploadOutcome>((resolve) => {
    const fail = (err: Error) => {
      const res = (err as DetailedError).originalResponse;
      if (res && res.getStatus() === 429 && !stopped) {
        // Not a failure: wait as the server asks, then go on from where the upload stands.
        rateTimer = setTimeout(() => upload?.start(), retryAfterMs(res.getHeader('Retry-After')));
        return;
      }
      resolve(tusOutcome(res, r.file.name));
    };
    upload = new Upload(r.file, {
      endpoint: `${API.tus}/`,
      metadata: { filename: r.file.name, filetype: r.file.type, appid: r.appid },
      headers: { 'X-CSRF-TOKEN': r.csrf },
      chunkSize,
      retryDelays: RETRY_DELAYS_MS,
      onShouldRetry: (err) => shouldRetry(err),
      // A finished upload is not offered again to a reloaded page.
      removeFingerprintOnSuccess: true,
      onBeforeRequest: finishGate(r.file, chunkSize, r.mayFinish),
      onProgress: (sent, total) => {
        if (total > 0) r.onProgress?.(sent / total);
      },
      onSuccess: ({ lastResponse }) => resolve(tusOutcome(lastResponse, r.file.name)),
      onError: fail,
      ...r.tusOptions,
    });
    void resumeOrStart(upload);
  });

  return {
    done,
    abort() {
      stopped = true;
      clearTimeout(rateTimer);
      void upload?.abort();
    },
  };
}

/** A reloaded page picks up an unfinished upload of the same file where the server has it. */
async function resumeOrStart(upload: Upload): Promise<void> {
  try {
    const previous = await upload.findPreviousUploads();
    if (previous.length > 0) upload.resumeFromPreviousUpload(previous[0]);
  } catch {
    // No storage (private mode): start afresh.
  }
  upload.start();
}
