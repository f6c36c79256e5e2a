// Errors the engine throws, each with a code; callers map codes to exit codes, HTTP answers and
// messages for people. The messages here are the command line's (one line, naming the file).

/** Why an input cannot be used. */
export type InputErrorCode =
  /** A file of zero bytes. */
  | 'empty'
  /** Missing, not a file, or not readable. */
  | 'unreadable'
  /** No audio stream, or none that decodes. */
  | 'not-audio'
  /** MP3 frames the parser cannot read or join. */
  | 'bad-mp3'
  /** Free-format MP3 (no bit rate in the header): cannot be walked frame by frame. */
  | 'free-format'
  /** ffmpeg could not re-encode it. */
  | 'reencode-failed'
  /** The input is also the output file. */
  | 'same-as-output';

export type EngineErrorCode =
  | InputErrorCode
  /** The output (or a temporary file) cannot be written. */
  | 'output-unwritable'
  /** No space (or quota) left where the output or a temporary file is written. */
  | 'disk-full'
  /** ffmpeg/ffprobe missing or unusable. */
  | 'tool-missing'
  /** The caller aborted the job. */
  | 'cancelled';

export abstract class EngineError extends Error {
  abstract readonly code: EngineErrorCode;
}

/** An input that cannot be used. The message names the file and the reason in one line. */
export class InputError extends EngineError {
  override name = 'InputError';
  constructor(
    readonly file: string,
    readonly reason: string,
    readonly index = -1,
    readonly code: InputErrorCode = 'unreadable',
  ) {
    super(`${file}: ${reason}`);
  }
}

/** The output, or a temporary file on the way to it, cannot be written. */
export class OutputError extends EngineError {
  override name = 'OutputError';
  constructor(
    message: string,
    readonly code: 'output-unwritable' | 'disk-full' = 'output-unwritable',
  ) {
    super(message);
  }
}

/** ffmpeg/ffprobe missing or unusable. */
export class ToolError extends EngineError {
  override name = 'ToolError';
  readonly code = 'tool-missing';
}

/** The caller aborted the job. */
export class AbortError extends EngineError {
  override name = 'AbortError';
  readonly code = 'cancelled';
  constructor(message = 'The merge was cancelled') {
    super(message);
  }
}
