// The widget's state and its rules, as a plain reducer tested without a browser (docs/reference/widget.md).
// Side effects (calls, timers, the socket) live in widget-store.ts; this file only decides.
import type { AudioItem, ProgressDetail } from '../../shared/types.js';
import { activeLocale, t } from '../i18n/locale.js';
import { mergeFailure } from '../i18n/server-words.js';
import { insertAt, keepOrder, moveItem } from './order.js';
import { isFollowed, percentOf, type MergeStatus } from './status.js';

/**
 * Every state a person can see. idle/uploading: the list. merging: the progress view, following
 * one merge. done: that merge succeeded (100% shows until the reload). failed: it ended otherwise,
 * its message shows with a reload button. expired: the session is gone, only a reload helps.
 */
export type Phase = 'idle' | 'uploading' | 'merging' | 'done' | 'failed' | 'expired';

export type LoadState = 'loading' | 'loaded' | 'failed';

/** A row removed on screen whose delete waits for the undo window to pass. */
export interface PendingRemoval {
  item: AudioItem;
  index: number;
}

export interface WidgetState {
  phase: Phase;
  /** True selects the progress view; only a cancel leads back without a reload. */
  showSpinner: boolean;
  /** The list, in merge order. */
  items: AudioItem[];
  /** The status text, starts at "0", replaced by each of the followed merge's events. */
  progress: string;
  /** Where the bar stands, 0-100; it never moves backwards. */
  percent: number;
  /** The followed merge's stage, file and time left, as its latest status told them. */
  where: ProgressDetail | null;
  load: LoadState;
  /** Why the list could not be loaded, when load is 'failed'. */
  loadError: string | null;
  /** Something the list could not do (remove a file, save the order), for a person. */
  notice: string | null;
  /** A word on what just happened (a merge was cancelled), until the person's next action. */
  info: string | null;
  removals: PendingRemoval[];
  /** The followed merge's requestId (null when it was made without one). */
  requestId: string | null;
  /** The message shown when failed or expired. */
  message: string | null;
  cancelling: boolean;
  /** Why a row's chapter title was refused, by item id, until one is saved. */
  titleErrors: Readonly<Record<string, string>>;
}

export type WidgetAction =
  | { type: 'loaded'; items: AudioItem[] }
  | { type: 'loadFailed'; reason: string }
  | { type: 'uploading'; busy: boolean }
  | { type: 'reordered'; activeId: string; overId: string }
  | { type: 'removed'; id: string }
  | { type: 'removalUndone'; id: string }
  | { type: 'removalDone'; id: string }
  | { type: 'removalFailed'; id: string; reason: string }
  | { type: 'notice'; text: string | null }
  | { type: 'info'; text: string | null }
  | { type: 'spanChanged'; id: string; start: number | null; end: number | null }
  | { type: 'chapterTitleChanged'; id: string; chapterTitle: string | null }
  | { type: 'chapterTitleSaved'; id: string; refused: string | null }
  | { type: 'makePressed'; requestId: string }
  | { type: 'attached'; status: MergeStatus & { requestId: string | null } }
  | { type: 'status'; status: MergeStatus }
  | { type: 'connectionLost' }
  | { type: 'succeeded' }
  | { type: 'failed'; message: string }
  | { type: 'expired' }
  | { type: 'cancelRequested' }
  | { type: 'cancelled' };

export const initialState: WidgetState = {
  phase: 'idle',
  showSpinner: false,
  items: [],
  progress: '0',
  percent: 0,
  where: null,
  load: 'loading',
  loadError: null,
  notice: null,
  info: null,
  removals: [],
  requestId: null,
  message: null,
  cancelling: false,
  titleErrors: {},
};

/** The list view's phases: the only ones in which the list may change or a merge be made. */
export const inList = (s: Pick<WidgetState, 'phase'>) => s.phase === 'idle' || s.phase === 'uploading';
const following = (s: WidgetState) => s.phase === 'merging' || s.phase === 'done';

/**
 * A waiting merge's words in the person's language, by the status's code and place in line. A
 * place the server did not send (a status read back from the merge's record) is not made up:
 * English keeps the server's sentence, which has it; other languages say it is waiting.
 */
function progressWords(status: MergeStatus): string {
  if (status.code !== 'queued' || percentOf(status.data) !== null) return status.data;
  if (status.ahead !== undefined && status.ahead > 0) return t().waitingAhead(status.ahead);
  return activeLocale() === 'en' && status.data.trim() !== '' ? status.data : t().waitingToStart;
}

function withStatus(state: WidgetState, status: MergeStatus): WidgetState {
  const percent = Math.max(state.percent, status.percent ?? state.percent);
  const next = { ...state, progress: progressWords(status), percent, where: status.where ?? null };
  if (status.state === 'succeeded') return { ...next, phase: 'done', percent: 100 };
  if (status.state === 'failed' || status.state === 'cancelled') {
    const fallback = status.state === 'failed' ? t().mergeFailed : t().mergeCancelled;
    const said = percentOf(status.data) === null && status.data.trim() !== '';
    const message = mergeFailure(status.code, said ? status.data : fallback, status.file);
    return { ...next, phase: 'failed', message };
  }
  return next;
}

function removalsReducer(state: WidgetState, action: WidgetAction): WidgetState {
  switch (action.type) {
    case 'removed': {
      const index = state.items.findIndex((i) => i.id === action.id);
      if (index < 0 || !inList(state)) return state;
      const removals = [...state.removals, { item: state.items[index], index }];
      return { ...state, items: state.items.filter((i) => i.id !== action.id), removals };
    }
    case 'removalUndone':
    case 'removalFailed': {
      const pending = state.removals.find((r) => r.item.id === action.id);
      if (!pending) return state;
      const removals = state.removals.filter((r) => r !== pending);
      const notice =
        action.type === 'removalFailed'
          ? t().removeFailed(pending.item.filename, action.reason)
          : state.notice;
      // Once the merge is under way the list is frozen; the row comes back with the next page.
      const items = inList(state) ? insertAt(state.items, pending.item, pending.index) : state.items;
      return { ...state, items, removals, notice };
    }
    case 'removalDone':
      return { ...state, removals: state.removals.filter((r) => r.item.id !== action.id) };
    default:
      return state;
  }
}

/** What a person edits on a row; the widget is the only one that changes them. */
const EDITED = ['start', 'end', 'chapterTitle'] as const;

/**
 * A freshly loaded item with the edits already shown on its row: a list loaded while a span or a
 * title is still on its way to the server (an upload ending as someone types) must not undo it.
 */
function withEdits(fresh: AudioItem, shown: AudioItem | undefined): AudioItem {
  if (!shown) return fresh;
  const edits = EDITED.filter((k) => shown[k] !== undefined).map((k) => [k, shown[k]]);
  return edits.length === 0 ? fresh : { ...fresh, ...Object.fromEntries(edits) };
}

/** A row's chapter title as typed (null: the default), and what the server said of the last one sent. */
function chapterTitleReducer(
  state: WidgetState,
  action: Extract<WidgetAction, { type: 'chapterTitleChanged' | 'chapterTitleSaved' }>,
): WidgetState {
  if (action.type === 'chapterTitleSaved') {
    const { [action.id]: was, ...others } = state.titleErrors;
    if (action.refused === null) return was === undefined ? state : { ...state, titleErrors: others };
    return was === action.refused
      ? state
      : { ...state, titleErrors: { ...others, [action.id]: action.refused } };
  }
  if (!inList(state)) return state;
  const at = state.items.findIndex((i) => i.id === action.id);
  if (at < 0 || (state.items[at].chapterTitle ?? null) === action.chapterTitle) return state;
  const items = state.items.map((i, k) => (k === at ? { ...i, chapterTitle: action.chapterTitle } : i));
  return { ...state, items };
}

/** What a person does to the list; each ends the word on what happened before. */
const PERSON_ACTIONS: ReadonlySet<WidgetAction['type']> = new Set([
  'reordered',
  'removed',
  'removalUndone',
  'spanChanged',
  'chapterTitleChanged',
  'makePressed',
] as const);

export function widgetReducer(state: WidgetState, action: WidgetAction): WidgetState {
  const next = reduce(state, action);
  if (next === state || next.info === null || !PERSON_ACTIONS.has(action.type)) return next;
  return { ...next, info: null };
}

function reduce(state: WidgetState, action: WidgetAction): WidgetState {
  switch (action.type) {
    case 'loaded': {
      const hidden = new Set(state.removals.map((r) => r.item.id));
      const shown = new Map(state.items.map((i) => [i.id, i]));
      const items = action.items.map((i) => withEdits(i, shown.get(i.id)));
      return { ...state, load: 'loaded', loadError: null, items: keepOrder(state.items, items, hidden) };
    }
    case 'loadFailed':
      return state.load === 'loaded'
        ? { ...state, notice: t().loadFailed(action.reason) }
        : { ...state, load: 'failed', loadError: action.reason };
    case 'uploading':
      return inList(state) ? { ...state, phase: action.busy ? 'uploading' : 'idle' } : state;
    case 'reordered': {
      // The order is frozen once the merge has been asked for.
      if (!inList(state)) return state;
      const items = moveItem(state.items, action.activeId, action.overId);
      return items === state.items ? state : { ...state, items };
    }
    case 'removed':
    case 'removalUndone':
    case 'removalDone':
    case 'removalFailed':
      return removalsReducer(state, action);
    case 'notice':
      return { ...state, notice: action.text };
    case 'info':
      return state.info === action.text ? state : { ...state, info: action.text };
    case 'spanChanged': {
      if (!inList(state)) return state;
      const { id, start, end } = action;
      const at = state.items.findIndex((i) => i.id === id);
      if (at < 0 || (state.items[at].start === start && state.items[at].end === end)) return state;
      const items = state.items.map((i, k) => (k === at ? { ...i, start, end } : i));
      return { ...state, items };
    }
    case 'chapterTitleChanged':
    case 'chapterTitleSaved':
      return chapterTitleReducer(state, action);
    case 'makePressed':
      if (!inList(state) || state.items.length === 0) return state;
      return {
        ...state,
        phase: 'merging',
        showSpinner: true,
        requestId: action.requestId,
        progress: '0',
        percent: 0,
      };
    case 'attached':
      if (!inList(state)) return state;
      return withStatus(
        { ...state, phase: 'merging', showSpinner: true, requestId: action.status.requestId, percent: 0 },
        action.status,
      );
    case 'status':
      if (!following(state) || !isFollowed(action.status, state.requestId)) return state;
      return withStatus(state, action.status);
    case 'connectionLost':
      return state.phase === 'merging' ? { ...state, progress: t().connectionLost } : state;
    case 'succeeded':
      return following(state) ? { ...state, phase: 'done', progress: '100', percent: 100 } : state;
    case 'failed':
      return following(state) ? { ...state, phase: 'failed', message: action.message } : state;
    case 'expired':
      return { ...state, phase: 'expired', message: t().expired };
    case 'cancelRequested':
      return state.phase === 'merging' ? { ...state, cancelling: true } : state;
    // The merge stopped: back to the list as it was (it cannot change during a merge), saying so.
    case 'cancelled':
      return state.phase === 'merging' || state.phase === 'failed'
        ? {
            ...state,
            phase: 'idle',
            showSpinner: false,
            cancelling: false,
            progress: '0',
            percent: 0,
            requestId: null,
            message: null,
            info: t().mergeCancelled,
          }
        : state;
  }
}

/** What the status line says: the failure, or the bar's percentage, or the latest message. */
export function statusLine(state: Pick<WidgetState, 'phase' | 'progress' | 'percent' | 'message'>): string {
  if ((state.phase === 'failed' || state.phase === 'expired') && state.message) return state.message;
  return percentOf(state.progress) === null ? state.progress : t().percent(state.percent);
}

/**
 * Where the followed merge stands, in words: "Encoding · file 37 of 500 · about 3 minutes left".
 * Empty once it has ended, and while waiting (the status line already says so), and the file is
 * left out for a merge of one file or while its output is written or stored.
 */
export function stageLine(state: Pick<WidgetState, 'phase' | 'where'>): string {
  const w = state.where;
  if (state.phase !== 'merging' || !w || w.stage === 'waiting') return '';
  const perFile = w.stage === 'reading' || w.stage === 'encoding';
  const parts = [t().stages[w.stage]];
  if (perFile && w.file !== null && w.files !== null && w.files > 1) parts.push(t().fileOf(w.file, w.files));
  if (w.secondsLeft !== null && w.secondsLeft > 0) parts.push(t().timeLeft(w.secondsLeft));
  return parts.join(' · ');
}

/**
 * Items from the getDataJson answer: the JSON text of the item list. A body that is itself a
 * JSON string holding the list is accepted too.
 */
export function parseItems(text: string): AudioItem[] {
  let value: unknown = JSON.parse(text);
  if (typeof value === 'string') value = JSON.parse(value);
  if (!Array.isArray(value)) throw new Error('getDataJson: expected a list of items');
  return value
    .filter(
      (v): v is AudioItem =>
        typeof v === 'object' &&
        v !== null &&
        ['id', 'sid', 'newfilename', 'format', 'filename'].every((k) => k in v),
    )
    .map((v) => ({ ...v, id: String(v.id) }));
}
