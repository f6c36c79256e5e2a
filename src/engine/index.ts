// The engine's public surface: what the server and the CLI may use.
export { probeFile } from './pipeline/probe.js';
export { mergeFiles } from './pipeline/merge.js';
export { locateTools, resolveToolPaths, lazyToolPaths, FALLBACK_NOTICE } from './ffmpeg/tools.js';
export { EngineError, InputError, OutputError, ToolError, AbortError } from './errors.js';
export type { EngineErrorCode, InputErrorCode } from './errors.js';
export { sweepLeftovers } from './io/leftovers.js';
export type { Tools, ProbeResult, MergeOptions, MergeReport } from './types.js';
// The output formats and their rules, for callers that check options before a merge.
export {
  BITRATE_RANGE,
  bitRateDefaultsText,
  defaultBitRateKbps,
  formatFromPath,
  isLossy,
  isOutputFormat,
  OUTPUT_FORMATS,
} from './pipeline/formats.js';
export type { OutputFormat } from './pipeline/formats.js';
export type { Chapter, ChapterTitleSource } from './pipeline/chapters.js';
export { checkSoundOptions, numberFromText, SOUND_LIMITS } from './pipeline/sound-options.js';
export type { SoundOptions, SoundOptionName } from './pipeline/sound-options.js';
