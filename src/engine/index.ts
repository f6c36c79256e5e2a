// The engine's public surface: what the server and the CLI may use.
export { probeFile } from './pipeline/probe.js';
export { mergeFiles } from './pipeline/merge.js';
export { locateTools, resolveToolPaths, lazyToolPaths } from './ffmpeg/tools.js';
export { EngineError, InputError, OutputError, ToolError, AbortError } from './errors.js';
export type { EngineErrorCode, InputErrorCode } from './errors.js';
export type { Tools, ProbeResult, MergeOptions, MergeReport } from './types.js';
