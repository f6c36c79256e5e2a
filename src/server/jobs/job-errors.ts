// How a job fails: a code from the one error table (the HTTP status and the words follow from
// it), a message for a person, and whether running it again could help. Bad input never
// retries; a worker that stopped, a full disk or a fault inside the server may.
import { AbortError, EngineError, isInputErrorCode } from '../../engine/index.js';
import { ERRORS, errorCodeOf, type ErrorCode } from '../errors.js';

export class JobFailure extends Error {
  override name = 'JobFailure';
  constructor(
    readonly code: ErrorCode,
    /** Worded for a person; the table's message for the code unless given. */
    message: string = ERRORS[code].message,
    readonly retryable = true,
    /** The person's own name of the one input at fault, so a client can word the failure itself. */
    readonly file?: string,
  ) {
    super(message);
  }
}

/** A failure the same input will fail again with: never retried. */
export const inputFailure = (code: ErrorCode, message?: string, file?: string) =>
  new JobFailure(code, message, false, file);

/** Any error from a processor as a JobFailure; `stopping` when the queue was stopping it. */
export function asJobFailure(err: unknown, stopping: boolean): JobFailure {
  if (err instanceof JobFailure) return err;
  if (err instanceof AbortError || stopping) return new JobFailure('mergeStopped');
  // An input's error that reached here was not worded by the processor: still the input's fault.
  if (err instanceof EngineError && isInputErrorCode(err.code)) return inputFailure(err.code);
  const code = errorCodeOf(err);
  // Engine codes about the machine (a full disk, a missing tool) and a full disk anywhere else.
  if (code && (err instanceof EngineError || code === 'disk-full')) return new JobFailure(code);
  return new JobFailure('mergeFailed');
}

/** Thrown by enqueue while the queue is shutting down. */
export class QueueClosedError extends Error {
  override name = 'QueueClosedError';
  readonly code = 'mergeStopped';
  constructor() {
    super(ERRORS.mergeStopped.message);
  }
}

/** `{ file }` when the failure is about one named input, else nothing: spread into what carries its code. */
export const fileOf = (f: { file?: string }): { file?: string } =>
  f.file === undefined ? {} : { file: f.file };
