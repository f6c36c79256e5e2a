// Errors the engine throws, each with a code; callers map codes to exit codes, HTTP answers and
// messages for people. The messages here are the command line's (one line, naming the file); a
// server chooses its own sentence by the code and the file's name, never by these words.

/** Why an input cannot be used, each a kind a caller can word for a person. */
export const INPUT_ERROR_CODES = [
  /** A file of zero bytes. */
  'empty',
  /** Missing, not a file, or not readable. */
  'unreadable',
  /** No audio stream, or none that decodes. */
  'not-audio',
  /** A sample rate no real audio has (a header that says 1 Hz): hours of "audio" from a few bytes. */
  'bad-rate',
  /** MP3 frames the parser cannot read or join. */
  'bad-mp3',
  /** Free-format MP3 (no bit rate in the header): cannot be walked frame by frame. */
  'free-format',
  /** MP3 frames that change format part-way (files joined end to end): cannot be copied as they are. */
  'format-change',
  /** An MP4 whose packet index cannot be read, or that ends inside its packets. */
  'bad-mp4',
  /** ffmpeg could not re-encode it. */
  'reencode-failed',
  /** ffmpeg could not decode it to the end to measure its loudness. */
  'measure-failed',
  /** A cover that is not a JPEG or PNG image. */
  'not-image',
  /** The input is also the output file. */
  'same-as-output',
] as const;

export type InputErrorCode = (typeof INPUT_ERROR_CODES)[number];

export const isInputErrorCode = (code: unknown): code is InputErrorCode =>
  (INPUT_ERROR_CODES as readonly unknown[]).includes(code);

export type EngineErrorCode =
  | InputErrorCode
  /** The output (or a temporary file) cannot be written. */
  | 'output-unwritable'
  /** No space (or quota) left where the output or a temporary file is written. */
  | 'disk-full'
  /** ffmpeg/ffprobe missing or unusable. */
  | 'tool-missing'
  /** A trim names no input, or a span that does not fit its input or keeps nothing. */
  | 'bad-trim'
  /** The caller aborted the job. */
  | 'cancelled'
  /** A chapter of the given list (a chapters file) starts past the output's end. */
  | 'chapter-past-end'
  /** The given list (a chapters file) holds more chapters than the output format can. */
  | 'too-many-chapters';

export abstract class EngineError extends Error {
  abstract readonly code: EngineErrorCode;
}

/**
 * An input that cannot be used: which file (`index` among the inputs, -1 when not one of them),
 * the kind (`code`), and `reason`, the command line's words for it (ffmpeg's own included).
 */
export class InputError extends EngineError {
  override name = 'InputError';
  constructor(
    readonly file: string,
    readonly code: InputErrorCode,
    readonly reason: string,
    readonly index = -1,
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

/**
 * A trim that cannot be used: which one (`trim`, its position among the trims given), the input it
 * names (0-based), and the reason in the command line's words.
 */
export class TrimError extends EngineError {
  override name = 'TrimError';
  readonly code = 'bad-trim';
  constructor(
    readonly label: string,
    readonly reason: string,
    readonly trim: number,
    readonly input: number,
  ) {
    super(`${label}: ${reason}`);
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

/**
 * A chapter list the caller gave that cannot be written: a chapter past the output's end, or more
 * chapters than the format holds. A mistake in what was asked (`line` of its file, when known).
 */
export class ChapterError extends EngineError {
  override name = 'ChapterError';
  constructor(
    message: string,
    readonly line?: number,
    readonly code: 'chapter-past-end' | 'too-many-chapters' = 'chapter-past-end',
  ) {
    super(message);
  }
}
