// Throw `fail('code', detail)` anywhere; the single error handler in app.ts answers with the
// code's status from the table in ../errors.ts and `{"error": message}`.
import { ERRORS, type ErrorCode } from '../errors.js';

export { ERRORS, type ErrorCode } from '../errors.js';

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
