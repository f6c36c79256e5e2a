// TEMPORARY, removed when the JobQueue seam (INTERFACES.md, owned by `seams`) is merged: the
// job data, result and processor it fixes, spelled here so the BullMQ queue can be built first.

export interface MergeJobData {
  jobId: string;
  sid: string;
  appid: string;
  itemIds: string[];
  options: Record<string, unknown>;
  requestId: string | null;
}

export interface MergeJobResult {
  resultId: string;
}

export type MergeProcessor = (
  data: MergeJobData,
  progress: (percent: number, text?: string) => void,
  signal: AbortSignal,
) => Promise<MergeJobResult>;
