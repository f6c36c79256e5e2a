// Where a merge stands, told the same way whether it comes from a job event as it happens or
// from the job's row later (a late subscriber, a reloaded page, GET /app/merge/status).
import type { MergeState, StatusPayload } from '../../shared/types.js';
import type { JobRow } from '../data/store.js';
import type { JobEvent } from './queue.js';

export interface JobStatusView {
  requestId: string | null;
  state: MergeState;
  percent: number | null;
  /** Words for a person: the place in line, the progress, the reason it failed. */
  text: string;
}

export function statusOfEvent(event: JobEvent): JobStatusView {
  const { requestId } = event;
  switch (event.type) {
    case 'progress':
      return { requestId, state: event.state, percent: event.percent, text: event.text };
    case 'completed':
      return { requestId, state: 'succeeded', percent: 100, text: event.text };
    case 'failed':
      return { requestId, state: 'failed', percent: null, text: event.message };
    case 'cancelled':
      return { requestId, state: 'cancelled', percent: null, text: event.message };
  }
}

export function statusOfJob(job: JobRow): JobStatusView {
  return {
    requestId: job.requestId,
    state: job.status,
    percent: job.status === 'succeeded' ? 100 : job.percent,
    text: job.statusText ?? job.error ?? '',
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
  };
}
