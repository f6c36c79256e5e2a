// The engine's public surface: what the server and the CLI may use.
export { decodedSeconds, probeFile } from './inputs/probe.js';
export { mergeFiles } from './merge/merge.js';
// An input's one length (decoded, without encoder delay and padding), and how far past it an end may be.
export { decodedLength, END_SLACK_SECONDS } from './inputs/length.js';
// What a cover may be (JPEG or PNG within 10 MB and 4096 x 4096), for every caller that takes one.
export { checkCover, COVER_LIMITS, coverDecodes, imageMime, imageShape, readAtMost } from './inputs/cover.js';
export type { Cover, CoverCheck } from './inputs/cover.js';
export { locateTools, resolveToolPaths, lazyToolPaths, FALLBACK_NOTICE } from './ffmpeg/tools.js';
export { toolNiceness } from './ffmpeg/runner.js';
export {
  EngineError,
  InputError,
  OutputError,
  ToolError,
  TrimError,
  AbortError,
  ChapterError,
  INPUT_ERROR_CODES,
  isInputErrorCode,
} from './errors.js';
export type { EngineErrorCode, InputErrorCode } from './errors.js';
// What else the engine can throw, each an EngineError with its code (callers map codes, not words).
export { FreeFormatError, FormatChangeError } from './mp3/walk.js';
export { Mp4Error } from './mp4/read.js';
export { DISK_FULL_ERRNOS } from './io/fs-reason.js';
export { sweepLeftovers } from './io/leftovers.js';
export type { Tools, ProbeResult, MergeOptions, MergeReport, ChapterMark, PartReport } from './types.js';
export type { MergeDeps } from './merge/merge.js';
// Fast paths that fell back to the plain way: the report's `fallbacks`, and their line for a person.
export { FALLBACK_STAGES, fallbackLine, isFallbackStage } from './plan/fallback.js';
export type { Fallback, FallbackStage } from './plan/fallback.js';
// The output formats and their rules, for callers that check options before a merge.
export {
  BITRATE_RANGE,
  bitRateDefaultsText,
  defaultBitRateKbps,
  formatFromPath,
  isLossy,
  isOutputFormat,
  OUTPUT_FORMATS,
} from './plan/formats.js';
export type { OutputFormat } from './plan/formats.js';
export type { Chapter, ChapterTitleSource } from './plan/chapters.js';
export type { OnProgress, ProgressWhere } from './plan/progress.js';
// An input's chapter title by default, for a caller that shows it before a merge.
export { defaultChapterTitle, oneLineTag } from './plan/chapters.js';
// What a merge takes from its inputs' tags when no detail is given (the page shows it as placeholders).
export { detailsOfTags, inheritedDetails } from './plan/tags-plan.js';
// The sound options and their one check live in src/shared/sound-options.ts, for every caller.
export type { SoundOptions, SoundOptionName } from '../shared/sound-options.js';
export type { TrimRequest, TrimSpan } from '../shared/trim-span.js';
// The waveform of an input: one decode into peak bins (src/shared/peaks.ts serves them).
export { decodePeaks, decodeTimeoutMs } from './inputs/peaks.js';
export { partPath } from './plan/parts.js';
