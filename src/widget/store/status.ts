// Merge status as the widget follows it: which events are its own, and where the bar may stand.
import type { MergeStage, MergeState, MergeStatusAnswer, ProgressDetail } from '../../shared/types.js';

/** A NewStatus payload as received; fields the server did not send are left undefined. */
export interface MergeStatus {
  data: string;
  /** undefined: the server sent none (an older server); null: the merge was made without one. */
  requestId?: string | null;
  state?: MergeState;
  percent: number | null;
  /** What the text says as a code (StatusPayload.code), for the person's language. */
  code?: string;
  /** While waiting: merges ahead of this one. */
  ahead?: number;
  /** A failure about one input: the person's name of that file (StatusPayload.file). */
  file?: string;
  /** While waiting or running: the stage, the input being worked on, the time left. */
  where?: ProgressDetail;
}

const STAGES: readonly string[] = ['waiting', 'reading', 'encoding', 'writing', 'storing'];
const count = (v: unknown): number | null =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : null;

/** The progress fields of a payload, when it has a stage this widget knows. */
function whereOf(p: Record<string, unknown>): ProgressDetail | undefined {
  if (typeof p.stage !== 'string' || !STAGES.includes(p.stage)) return undefined;
  const left = p.secondsLeft;
  return {
    stage: p.stage as MergeStage,
    file: count(p.file),
    files: count(p.files),
    secondsLeft: typeof left === 'number' && Number.isFinite(left) && left >= 0 ? left : null,
  };
}

const STATES: readonly string[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];
const WHOLE_NUMBER = /^\s*\d+\s*$/;

/** The bar position a status text stands for, or null when it is a message for a person. */
export function percentOf(text: string): number | null {
  if (!WHOLE_NUMBER.test(text)) return null;
  return clampPercent(Number.parseInt(text, 10));
}

function clampPercent(n: number): number {
  return Math.min(100, Math.max(0, Math.round(n)));
}

/** A NewStatus payload, or null when it carries no progress text. */
export function parseStatus(raw: unknown): MergeStatus | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const p = raw as Record<string, unknown>;
  if (p.data === undefined || p.data === null) return null;
  const data = String(p.data);
  const status: MergeStatus = {
    data,
    percent:
      typeof p.percent === 'number' && Number.isFinite(p.percent) ? clampPercent(p.percent) : percentOf(data),
  };
  if (p.requestId === null || typeof p.requestId === 'string') status.requestId = p.requestId;
  if (typeof p.state === 'string' && STATES.includes(p.state)) status.state = p.state as MergeState;
  if (typeof p.code === 'string') status.code = p.code;
  if (typeof p.ahead === 'number' && Number.isInteger(p.ahead) && p.ahead >= 0) status.ahead = p.ahead;
  if (typeof p.file === 'string' && p.file !== '') status.file = p.file;
  const where = whereOf(p);
  if (where) status.where = where;
  return status;
}

/** GET /app/merge/status as a status to follow, or null when there is no merge under way. */
export function runningMerge(answer: MergeStatusAnswer): (MergeStatus & { requestId: string | null }) | null {
  if (answer.state !== 'queued' && answer.state !== 'running') return null;
  const text =
    typeof answer.text === 'string' && answer.text !== '' ? answer.text : String(answer.percent ?? 0);
  const parsed = parseStatus({
    data: text,
    requestId: answer.requestId ?? null,
    state: answer.state,
    percent: answer.percent,
    code: answer.code,
    ahead: answer.ahead,
    stage: answer.stage,
    file: answer.file,
    files: answer.files,
    secondsLeft: answer.secondsLeft,
  });
  return parsed && { ...parsed, requestId: parsed.requestId ?? null };
}

/**
 * Is this event about the merge being followed? An event without a requestId field comes from a
 * server that does not send one, and is taken as it always was.
 */
export function isFollowed(status: MergeStatus, requestId: string | null): boolean {
  return status.requestId === undefined || status.requestId === requestId;
}
