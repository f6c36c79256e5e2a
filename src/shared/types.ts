// Names and shapes that both the server and the widget rely on (docs/reference/http.md, docs/reference/widget.md, docs/reference/realtime.md).

/** One uploaded audio file as the widget sees it (docs/reference/http.md). */
export interface AudioItem {
  id: string;
  sid: string;
  newfilename: string;
  format: string;
  filename: string;
  /** Seconds, from the server's probe; optional extra field. */
  duration?: number;
  /** Bytes on disk; optional extra field. */
  size?: number;
  /** Audio channels (1 mono, 2 stereo), from the probe; optional extra field. */
  channels?: number;
  /** The kept span, seconds of the decoded file (saveItem); null for the file's own start or end. */
  start?: number | null;
  end?: number | null;
  /** The chapter title given with saveItem; null for the default (the file's title tag or name). */
  chapterTitle?: string | null;
  /** The chapter title a merge gives the item when none is given: its title tag, else its file name. */
  defaultChapterTitle?: string;
  /**
   * How many chapters the file carries of its own (0: none). A merge keeps them, moved to where
   * the item starts, instead of one chapter titled as above (unless its options flatten them).
   * Absent when the server has not counted them.
   */
  chapters?: number;
}

export type MergeState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/**
 * What a merge is doing: waiting in line, reading its inputs (probing, measuring loudness),
 * encoding or joining them, writing the output's index and tags, storing the finished file.
 */
export type MergeStage = 'waiting' | 'reading' | 'encoding' | 'writing' | 'storing';

/** Where a running merge stands, besides its percentage: the stage, the input, the time left. */
export interface ProgressDetail {
  stage: MergeStage;
  /** The input being worked on, 1-based (null while waiting). */
  file: number | null;
  /** How many inputs the merge has (null while waiting). */
  files: number | null;
  /** Seconds left at the pace measured so far; null until that pace is known. */
  secondsLeft: number | null;
}

/** The fields a status carries while a merge waits or runs (`file` is a failure's file name otherwise). */
export interface ProgressFields {
  stage?: MergeStage;
  file?: number | string;
  files?: number | null;
  secondsLeft?: number | null;
}

/** Payload of the realtime NewStatus event. */
export interface StatusPayload extends ProgressFields {
  /** A whole-number percentage "0" to "100" while running and when done, else words for a person. */
  data: string;
  /** The merge's own id, when the client gave one. */
  requestId: string | null;
  state: MergeState;
  /** A number while running and when done; null while waiting and after a failure. */
  percent: number | null;
  /**
   * What `data` says, as a stable word a client can put in its own language: "queued" while
   * waiting, the error's code when failed, "cancelled". Absent where the words are the percentage.
   */
  code?: string;
  /** While waiting: how many merges are ahead of this one, when the queue knows. */
  ahead?: number;
  /**
   * A failure about one input (its `code` says which way): the person's own name of that file.
   * While the merge runs: the input being worked on, 1-based.
   */
  file?: string | number;
}

/** GET /app/merge/status: the session's latest merge. */
export type MergeStatusAnswer =
  | { state: 'none' }
  | ({
      requestId: string | null;
      state: MergeState;
      percent: number | null;
      text: string;
      code?: string;
      ahead?: number;
    } & ProgressFields);

/** An error answer: `{"error": message}`, with the error's code from the server's table. */
export interface ErrorAnswer {
  error: string;
  code?: string;
  /** A refusal of one input (a merge's): the person's own name of that file. */
  file?: string;
}

/** Error codes that mean the page's session or token is gone: only a reload helps. */
export const EXPIRED_ERROR_CODES: readonly string[] = ['noSession', 'csrf'];

export const STATUS_EVENT = 'NewStatus';

export const API = {
  getDataJson: '/app/merge/getDataJson',
  merge: '/app/merge/mergemp3',
  upload: '/app/merge/upload',
  /** tus 1.0 resumable uploads (docs/reference/uploads.md). */
  tus: '/app/merge/tus',
  deleteItem: '/app/merge/deleteItem',
  saveOrder: '/app/merge/saveOrder',
  saveItem: '/app/merge/saveItem',
  /** GET `${peaks}/{id}?bins=N`: an item's waveform. */
  peaks: '/app/merge/peaks',
  status: '/app/merge/status',
  cancel: '/app/merge/cancel',
  deleteResult: '/app/merge/deleteResult',
  /** GET `${resultCover}/{id}`: the cover kept with a merged result. */
  resultCover: '/app/merge/resultCover',
  cover: '/app/merge/cover',
  deleteCover: '/app/merge/deleteCover',
  saveChoices: '/app/merge/saveChoices',
  choices: '/app/merge/choices',
  /** GET `?appid=`: the details a merge takes from the files' tags (the Book details placeholders). */
  tagDetails: '/app/merge/tagDetails',
  widgetScript: '/widget/audio-merge.js',
} as const;

export const WIDGET_ELEMENT_ID = 'audio-merge-tool';

export function statusChannel(appid: string, sid: string): string {
  return `status-channel-${appid}-${sid}`;
}

/** Play path of an upload: /upload/{sid}/{newfilename}.{format} */
export function playPath(item: Pick<AudioItem, 'sid' | 'newfilename' | 'format'>): string {
  return `/upload/${encodeURIComponent(item.sid)}/${encodeURIComponent(item.newfilename)}.${encodeURIComponent(item.format)}`;
}

/** The merge answer that makes the widget reload the page. */
export const MERGE_SUCCESS = 'success';
