// The engine's public surface: what the server and the CLI may use.
export { probeFile } from './probe.js';
export { mergeFiles } from './merge.js';
export { locateTools, resolveToolPaths } from './tools.js';
export { InputError, ToolError, AbortError } from './errors.js';
export type { Tools, ProbeResult, MergeOptions, MergeReport } from './types.js';
