// One table of the errors the server answers with. Throw `fail('code', detail)` anywhere;
// the single error handler in app.ts maps it to the status and `{"error": message}`.

export const ERRORS = {
  badRequest: { status: 400, message: 'The request is not valid' },
  csrf: { status: 403, message: 'The request has no valid X-CSRF-TOKEN header' },
  noSession: { status: 403, message: 'No session: load the page first' },
  foreignItem: { status: 403, message: 'An item does not belong to this session' },
  foreignFile: { status: 403, message: 'That file does not belong to this session' },
  foreignChannel: { status: 403, message: 'That channel does not belong to this session' },
  notFound: { status: 404, message: 'Not found' },
  notAudio: { status: 422, message: 'The file is not usable audio' },
  tooLarge: { status: 413, message: 'The file is too large' },
  tooManyFiles: { status: 409, message: 'Too many files in this session' },
  noItems: { status: 400, message: 'There is nothing to merge' },
  rateLimited: { status: 429, message: 'Too many requests; wait a moment' },
  mergeFailed: { status: 500, message: 'The merge failed' },
  cancelled: { status: 409, message: 'The merge was cancelled' },
  unavailable: { status: 503, message: 'The server is shutting down; try again shortly' },
  internal: { status: 500, message: 'Something went wrong on the server' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    /** Replaces the table's message when given: it should name the file and the reason. */
    detail?: string,
    /** Extra fields for the JSON answer (e.g. which files failed). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail ?? ERRORS[code].message);
    this.name = 'AppError';
    this.status = ERRORS[code].status;
  }
}

export function fail(code: ErrorCode, detail?: string, extra?: Record<string, unknown>): never {
  throw new AppError(code, detail, extra);
}
