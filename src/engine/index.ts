// The engine's public surface: what the server and the CLI may use.
export { probeFile } from './pipeline/probe.js';
export { mergeFiles } from './pipeline/merge.js';
export { locateTools, resolveToolPaths, lazyToolPaths } from './ffmpeg/tools.js';
export { InputError, ToolError, AbortError } from './errors.js';
export type { Tools, ProbeResult, MergeOptions, MergeReport } from './types.js';
export { checkSoundOptions, numberFromText, SOUND_LIMITS } from './pipeline/sound-options.js';
export type { SoundOptions, SoundOptionName } from './pipeline/sound-options.js';
