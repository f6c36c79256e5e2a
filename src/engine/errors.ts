// Errors the engine throws; callers map them to exit codes or HTTP answers.

/** An input that cannot be used. The message names the file and the reason in one line. */
export class InputError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly index = -1,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'InputError';
  }
}

/** ffmpeg/ffprobe missing or unusable. */
export class ToolError extends Error {
  override name = 'ToolError';
}

/** The caller aborted the job. */
export class AbortError extends Error {
  override name = 'AbortError';
  constructor(message = 'The merge was cancelled') {
    super(message);
  }
}
