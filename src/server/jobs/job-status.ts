// Where a merge stands, told the same way whether it comes from a job event as it happens or
// from the job's row later (a late subscriber, a reloaded page, GET /app/merge/status).
import type { MergeState, MergeStatusAnswer, ProgressDetail, StatusPayload } from '../../shared/types.js';
import type { JobPatch, JobRow } from '../data/store.js';
import type { ErrorCode } from '../errors.js';
import type { JobEvent, JobEvents, JobRef, MergeJobData } from './queue.js';
import { runningText } from './job-messages.js';

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
  /** While waiting or running: the stage, the input being worked on, the time left. */
  detail?: ProgressDetail;
}

/** Which job an event is about: the fields of its data every event carries. */
export const refOf = (d: MergeJobData): JobRef => ({
  jobId: d.jobId,
  sid: d.sid,
  appid: d.appid,
  requestId: d.requestId,
});

/**
 * A running merge's progress as both queues tell it: the row's patch and the event, the words the
 * merge gave or its percentage in words, and where it stands.
 */
export function runningProgress(
  data: MergeJobData,
  percent: number,
  words: string | undefined,
  detail: ProgressDetail | undefined,
): { patch: JobPatch; event: JobEvent } {
  const statusText = words ?? runningText(percent);
  return {
    patch: { percent, statusText },
    event: {
      ...refOf(data),
      type: 'progress',
      state: 'running',
      percent,
      text: statusText,
      ...detailOf(detail),
    },
  };
}

/** Where a waiting merge stands. */
export const WAITING: ProgressDetail = { stage: 'waiting', file: null, files: null, secondsLeft: null };

/** Where a merge stands the moment it starts: reading its first input. */
export function startedDetail(data: { itemIds: readonly string[] }): ProgressDetail {
  return { stage: 'reading', file: 1, files: data.itemIds.length, secondsLeft: null };
}

/** An event's or a view's detail field, left out when there is none. */
export function detailOf(detail: ProgressDetail | undefined): { detail?: ProgressDetail } {
  return detail ? { detail } : {};
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
          detail: event.detail ?? WAITING,
        };
      return {
        requestId,
        state: event.state,
        percent: event.percent,
        text: event.text,
        ...detailOf(event.detail),
      };
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
 * How a job that ended without a result is kept in its row: the words the person read, and the
 * code and file they were chosen by, so the row tells it later exactly as the event did.
 */
export function endedRow(
  state: 'failed' | 'cancelled',
  end: { message: string; code: ErrorCode; file?: string },
): JobPatch {
  return {
    status: state,
    error: end.message,
    statusText: end.message,
    errorCode: end.code,
    errorFile: end.file ?? null,
    percent: null,
  };
}

/** The code of a row's words: how it ended (kept with it), else what its state says. */
function codeOfJob(job: JobRow): string | undefined {
  if (job.status === 'queued') return QUEUED_CODE;
  const ended = job.status === 'failed' || job.status === 'cancelled';
  if (ended && job.errorCode !== null) return job.errorCode;
  return job.status === 'cancelled' ? CANCELLED_CODE : undefined;
}

/**
 * A job's row as its status: the words, their code and the file they name as the failure's event
 * had them (a row from before codes were kept has the words alone; its state still tells a
 * waiting or cancelled merge).
 */
export function statusOfJob(job: JobRow, live?: ProgressDetail): JobStatusView {
  const code = codeOfJob(job);
  const file = job.status === 'failed' && job.errorFile !== null ? job.errorFile : undefined;
  const detail = job.status === 'queued' ? WAITING : job.status === 'running' ? live : undefined;
  return {
    requestId: job.requestId,
    state: job.status,
    percent: job.status === 'succeeded' ? 100 : job.percent,
    text: job.statusText ?? job.error ?? '',
    ...(code ? { code } : {}),
    ...(file === undefined ? {} : { file }),
    ...detailOf(detail),
  };
}

/** The latest detail of a running merge, by its id. */
export type LiveDetail = (jobId: string) => ProgressDetail | undefined;
export interface LiveProgress {
  get: LiveDetail;
}

/** GET /app/merge/status's answer: the view with its progress fields as the API spells them. */
export function statusAnswer(view: JobStatusView): MergeStatusAnswer {
  const { detail, ...rest } = view;
  return { ...rest, ...(detail ? progressFields(detail) : {}) };
}

/**
 * The latest detail of each running merge, as the job events told it: a job row keeps the
 * percentage and the words, not the stage, so a status read from the row (GET status, a new
 * subscriber) takes the detail from here. Forgotten when the merge ends; a process that started
 * after the last event has none until the next one, a second or so later.
 */
export function liveProgress(events: JobEvents): LiveProgress {
  const live = new Map<string, ProgressDetail>();
  events.on((event) => {
    if (event.type !== 'progress') live.delete(event.jobId);
    else if (event.state === 'running' && event.detail) live.set(event.jobId, event.detail);
  });
  return { get: (jobId) => live.get(jobId) };
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
    ...(view.detail ? progressFields(view.detail) : {}),
  };
}

/** A status's progress fields as the API spells them (`file` a number here: the input being worked on). */
function progressFields(d: ProgressDetail): Pick<StatusPayload, 'stage' | 'file' | 'files' | 'secondsLeft'> {
  return {
    stage: d.stage,
    ...(d.file === null ? {} : { file: d.file }),
    files: d.files,
    secondsLeft: d.secondsLeft,
  };
}
