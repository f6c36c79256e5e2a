// Where a merge stands, told the same way whether it comes from a job event as it happens or
// from the job's row later (a late subscriber, a reloaded page, GET /app/merge/status).
import type { MergeState, StatusPayload } from '../../shared/types.js';
import type { JobRow } from '../data/store.js';
import type { ErrorCode } from '../errors.js';
import type { JobEvent } from './queue.js';

export interface JobStatusView {
  requestId: string | null;
  state: MergeState;
  percent: number | null;
  /** Words for a person: the place in line, the progress, the reason it failed. */
  text: string;
  /** The words as a code, so a client can say them in its own language. */
  code?: string;
  /** While queued: merges ahead of this one, when known. */
  ahead?: number;
  /** A failure about one input: the person's name of that file. */
  file?: string;
}

/** The code of a waiting merge's words. */
export const QUEUED_CODE = 'queued';
/** The code of a cancelled merge's words (the error table's). */
const CANCELLED_CODE: ErrorCode = 'cancelled';

export function statusOfEvent(event: JobEvent): JobStatusView {
  const { requestId } = event;
  switch (event.type) {
    case 'progress':
      if (event.state === 'queued')
        return {
          requestId,
          state: 'queued',
          percent: null,
          text: event.text,
          code: QUEUED_CODE,
          ahead: event.ahead,
        };
      return { requestId, state: event.state, percent: event.percent, text: event.text };
    case 'completed':
      return { requestId, state: 'succeeded', percent: 100, text: event.text };
    case 'failed':
      return {
        requestId,
        state: 'failed',
        percent: null,
        text: event.message,
        code: event.code,
        ...(event.file === undefined ? {} : { file: event.file }),
      };
    case 'cancelled':
      return { requestId, state: 'cancelled', percent: null, text: event.message, code: CANCELLED_CODE };
  }
}

/**
 * A job's row keeps the words but not their code; the state still tells a waiting or cancelled
 * merge (a failure's code is not kept: its words are the server's).
 */
export function statusOfJob(job: JobRow): JobStatusView {
  const code =
    job.status === 'queued' ? QUEUED_CODE : job.status === 'cancelled' ? CANCELLED_CODE : undefined;
  return {
    requestId: job.requestId,
    state: job.status,
    percent: job.status === 'succeeded' ? 100 : job.percent,
    text: job.statusText ?? job.error ?? '',
    ...(code ? { code } : {}),
  };
}

/** The NewStatus payload: `data` is the percentage while a merge runs or once it is done, else the words. */
export function statusPayload(view: JobStatusView): StatusPayload {
  const counting = (view.state === 'running' || view.state === 'succeeded') && view.percent !== null;
  return {
    data: counting ? String(view.percent) : view.text,
    requestId: view.requestId,
    state: view.state,
    percent: view.percent,
    ...(view.code === undefined ? {} : { code: view.code }),
    ...(view.ahead === undefined ? {} : { ahead: view.ahead }),
    ...(view.file === undefined ? {} : { file: view.file }),
  };
}
