// How a job fails: a message for a person, what kind of failure it is (the HTTP status follows
// from it), and whether running it again could help. Bad input never retries; a worker that
// stopped or a fault inside the server may.
import { AbortError } from '../../engine/errors.js';
import { INTERNAL_MESSAGE, SHUTDOWN_MESSAGE } from './job-messages.js';

export type FailureKind = 'input' | 'unavailable' | 'internal';

export class JobFailure extends Error {
  override name = 'JobFailure';
  constructor(
    /** Already worded for a person. */
    message: string,
    readonly kind: FailureKind,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** A failure the same input will fail again with: never retried. */
export const inputFailure = (message: string) => new JobFailure(message, 'input', false);

/** Any error from a processor as a JobFailure; `stopping` when the queue was shutting down. */
export function asJobFailure(err: unknown, stopping: boolean): JobFailure {
  if (err instanceof JobFailure) return err;
  if (err instanceof AbortError || stopping) return new JobFailure(SHUTDOWN_MESSAGE, 'unavailable', true);
  return new JobFailure(INTERNAL_MESSAGE, 'internal', true);
}

/** Thrown by enqueue while the queue is shutting down. */
export class QueueClosedError extends Error {
  override name = 'QueueClosedError';
  constructor() {
    super(SHUTDOWN_MESSAGE);
  }
}
