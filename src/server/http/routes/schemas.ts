// The documented shape of every route: what docs/openapi.json is generated from
// (`npm run docs:api`) and what docs/reference/http.md explains. Documentation only: the handlers check their
// own input and say what is wrong in their own words, so these schemas neither validate a request
// (an ajv message would replace the route's) nor filter a response (a response schema would strip
// fields it does not name). Routes whose schema does validate (getDataJson's body) keep theirs.
import { DEFAULT_PEAK_SLICES, MAX_PEAK_SLICES } from '../../../shared/peaks.js';
import { CHAPTER_TITLE } from '../../../shared/chapters-file.js';
import { typedTextPattern } from '../../../shared/typed-text.js';
import type { FastifySchema, RouteShorthandOptions } from 'fastify';
// Types only (erased at run time): the OpenAPI fields (summary, tags, ...) @fastify/swagger adds to FastifySchema.
import type {} from '@fastify/swagger';
import { BITRATE_RANGE, OUTPUT_FORMATS } from '../../../engine/index.js';
import { DETAIL_NAMES, DETAIL_TAGS, detailRule } from '../../../shared/details.js';
import { CHAPTER_DEFAULTS, CHAPTER_LIMITS, CHAPTERS_AT } from '../../../shared/chapter-options.js';
import { CHANNEL_CHOICES, SAMPLE_RATE_RANGE } from '../../../shared/output-shape.js';
import {
  SOUND_OPTION_NAMES,
  SOUND_RULES,
  type SoundOptionName,
  type SoundRule,
} from '../../../shared/sound-options.js';

/** What an appid may be: it becomes part of a channel name. */
export const APPID_PATTERN = '^[A-Za-z0-9_.-]{1,100}$';

/** Route options that attach `schema` for the reference and leave requests and answers untouched. */
export function documented(
  schema: FastifySchema,
): Pick<RouteShorthandOptions, 'schema' | 'validatorCompiler' | 'serializerCompiler'> {
  return {
    schema,
    validatorCompiler: () => () => true,
    serializerCompiler: () => (data) => JSON.stringify(data),
  };
}

/** A response schema that only documents (used with a pass-through serializer). */
const json = (description: string, schema: Record<string, unknown>) => ({ description, ...schema });

const errorFields = {
  error: {
    type: 'string',
    description: 'What is wrong, for a person; names the file when one is at fault',
  },
  code: {
    type: 'string',
    description:
      "The error's code from the server's one table (noSession, csrf, foreignItem, disk-full, ...), for a client to act on",
  },
};

const errorBody = (description: string) =>
  json(description, { type: 'object', required: ['error'], properties: errorFields });

/** An error about one input: `file` names it, so a client can word `code` in its own language. */
const fileErrorBody = (description: string) =>
  json(description, {
    type: 'object',
    required: ['error'],
    properties: {
      ...errorFields,
      file: { type: 'string', description: "The person's own name of the input at fault" },
    },
  });

const binary = (description: string, contentType: string) => ({
  description,
  content: { [contentType]: { schema: { type: 'string', format: 'binary' } } },
});

const common = {
  403: errorBody(
    'No session (load the page first), a missing or wrong X-CSRF-TOKEN, or something of another session',
  ),
  503: errorBody('The server is shutting down; try again shortly'),
  507: errorBody(
    "The server's disk is full, or storing this would leave less than MIN_FREE_MB free (code disk-full); nothing was kept",
  ),
};

const ok = json('Done', {
  type: 'object',
  required: ['ok'],
  properties: { ok: { type: 'boolean', enum: [true] } },
});

const idBody = (what: string) => ({
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 200, description: what } },
});

export const audioItem = {
  type: 'object',
  required: ['id', 'sid', 'newfilename', 'format', 'filename'],
  properties: {
    id: { type: 'string', description: 'The item id; the only field of an item the server reads back' },
    sid: {
      type: 'string',
      description: 'The public session id (the play path and the channel name hold it)',
    },
    newfilename: { type: 'string', description: 'Stored name, server-made; used in the play path' },
    format: {
      type: 'string',
      description: 'Container the probe found (mp3, wav, flac, ogg, ...); the extension of the play path',
    },
    filename: {
      type: 'string',
      description: "The client's file name, for display only (base name, control characters removed)",
    },
    duration: { type: 'number', description: 'Seconds, from the probe' },
    size: { type: 'number', description: 'Bytes stored' },
    channels: { type: 'integer', description: 'Audio channels, from the probe (1 mono, 2 stereo)' },
    start: {
      type: ['number', 'null'],
      description: 'Where the kept span starts, seconds (saveItem); null for the start of the file',
    },
    end: {
      type: ['number', 'null'],
      description: 'Where the kept span ends, seconds; null for the end of the file',
    },
    chapterTitle: {
      type: ['string', 'null'],
      description: "The item's chapter title (saveItem); null for the default",
    },
    defaultChapterTitle: {
      type: 'string',
      description:
        'The chapter title a merge gives the item when none is saved: its title tag, else its file name without the extension',
    },
    chapters: {
      type: 'integer',
      minimum: 0,
      description:
        "How many chapters the file carries of its own (0: none). A merge keeps them, moved to where the item starts, instead of one chapter titled by chapterTitle (unless the merge's inputChapters is flatten). Absent for an item stored before the server counted them",
    },
  },
};

const csrfHeader = {
  type: 'object',
  properties: {
    'x-csrf-token': { type: 'string', description: 'The token of the page\'s <meta name="csrf-token">' },
  },
};

export const hostPageSchema: FastifySchema = {
  summary: 'The host page',
  description:
    'Starts a session when the request has none (cookie am_session, HttpOnly, SameSite=Lax). Holds the csrf-token meta tag, ' +
    "the upload form, the widget element and this session's merged results. At most 300 new sessions a minute per address.",
  tags: ['page'],
  response: {
    200: binary('The page', 'text/html'),
    429: errorBody('Too many new sessions from this address in the last minute'),
    503: common[503],
  },
};

/** `perRequest`: the files one request may carry (the route's own limit). */
export const uploadSchema = (perRequest: number): FastifySchema => ({
  summary: 'Upload audio files',
  description:
    'Each file is streamed to disk, probed, and stored under a new name with the format the probe found, or refused ' +
    'with a reason; a refused file leaves nothing behind and does not stop the others. With X-CSRF-TOKEN absent, the ' +
    'form field _csrf must come before the first file. A browser form post (Accept: text/html first) is answered ' +
    `with a 303 to / instead, the refusals shown once on the page. At most ${perRequest} files a request; 120 requests a minute per session by default.`,
  tags: ['items'],
  consumes: ['multipart/form-data'],
  headers: csrfHeader,
  body: {
    type: 'object',
    required: ['files'],
    properties: {
      appid: {
        type: 'string',
        pattern: APPID_PATTERN,
        description: "The widget's appid (default: the server's)",
      },
      _csrf: {
        type: 'string',
        description: 'The CSRF token, for a form that cannot send the header; before any file',
      },
      files: {
        type: 'array',
        items: { type: 'string', format: 'binary' },
        description: 'One or more audio files',
      },
    },
  },
  response: {
    200: json('At least one file was stored; `errors` lists those refused', {
      type: 'object',
      required: ['items', 'errors'],
      properties: {
        items: { type: 'array', items: audioItem },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['filename', 'error'],
            properties: { filename: { type: 'string' }, error: { type: 'string' } },
          },
        },
      },
    }),
    303: { description: 'A browser form post: see / (refusals are shown there once)' },
    400: errorBody('Not multipart, no file, an invalid appid, or a body cut short'),
    403: common[403],
    409: errorBody(
      'Every file was refused and the first because the session holds MAX_FILES files; `errors` lists each',
    ),
    413: errorBody(
      'Every file was refused and the first as larger than MAX_FILE_MB, or too many files or fields in one request',
    ),
    422: errorBody('Every file was refused and the first as not usable audio; `errors` lists each'),
    429: errorBody('Too many uploads a minute from this session (120 by default)'),
    503: common[503],
    507: common[507],
  },
});

export const getDataJsonSchema: FastifySchema = {
  summary: "This session's items",
  description:
    'The items of this session for that appid, in the order last saved with saveOrder (upload order until then; ' +
    'later uploads at the end), as JSON text.',
  tags: ['items'],
  headers: csrfHeader,
  body: {
    type: 'object',
    required: ['appid'],
    properties: { appid: { type: 'string', pattern: APPID_PATTERN } },
  },
  response: {
    200: json('The items', { type: 'array', items: audioItem }),
    400: errorBody('No valid appid'),
    403: common[403],
    503: common[503],
  },
};

const SOUND_ABOUT: Record<SoundOptionName, string> = {
  loudness: 'Target integrated loudness in LUFS (EBU R128), or null for off',
  gap: 'Seconds of silence between items; not with crossfade',
  crossfade: 'Seconds consecutive items overlap, with a constant-power fade; not with gap',
  trimSilence: "Remove each item's leading and trailing silence (below -50 dBFS)",
  gapless: "Remove each item's encoder delay and padding",
};

/** A sound option's schema, from the rule the command line and the server check it by. */
function soundSchema(option: SoundOptionName) {
  const rule: SoundRule = SOUND_RULES[option];
  const about = { description: SOUND_ABOUT[option] };
  if (rule.kind === 'switch') return { type: 'boolean', ...about };
  return {
    type: 'number',
    ...(rule.nullIsOff ? { nullable: true } : {}),
    minimum: rule.min,
    maximum: rule.max,
    ...about,
  };
}

const soundOptions = Object.fromEntries(SOUND_OPTION_NAMES.map((o) => [o, soundSchema(o)]));

const seconds = (r: { min: number; max: number }, description: string) => ({
  type: 'number',
  minimum: r.min,
  maximum: r.max,
  description,
});

/** The chapter-finding options, by the rules the command line checks them by. */
const findingOptions = {
  chaptersAt: {
    type: 'string',
    enum: [...CHAPTERS_AT],
    description:
      'Where chapters start: each item (files, the default), the silences inside and between items, or both',
  },
  silenceMin: seconds(
    CHAPTER_LIMITS.silenceMin,
    `A silence lasts at least this many seconds (default ${CHAPTER_DEFAULTS.silenceMin})`,
  ),
  silenceDb: seconds(
    CHAPTER_LIMITS.silenceDb,
    `A silence is below this level, dBFS (default ${CHAPTER_DEFAULTS.silenceDb})`,
  ),
  chapterMin: seconds(
    CHAPTER_LIMITS.chapterMin,
    'A chapter found in a silence less than this many seconds after the one before is not made',
  ),
  chapterMax: seconds(
    CHAPTER_LIMITS.chapterMax,
    'A chapter longer than this many seconds is split in a pause',
  ),
};

/** mergemp3's "options" as src/server/jobs/merge-options.ts checks them (that check is what refuses). */
const mergeOptions = {
  type: 'object',
  additionalProperties: false,
  description:
    "All optional; the command line's choices by another name. Without options the merge is an MP3 as before. " +
    'An invalid option is a 400 naming it, and nothing is queued.',
  properties: {
    format: { type: 'string', enum: [...OUTPUT_FORMATS], description: 'Output format (default mp3)' },
    bitrate: {
      type: 'integer',
      minimum: BITRATE_RANGE.min,
      maximum: BITRATE_RANGE.max,
      description: "kb/s of a lossy encode (default: the format's)",
    },
    channels: { type: 'integer', enum: [...CHANNEL_CHOICES], description: "The output's channels (1 or 2)" },
    sampleRate: {
      type: 'integer',
      minimum: SAMPLE_RATE_RANGE.min,
      maximum: SAMPLE_RATE_RANGE.max,
      description: "The output's sample rate, Hz (the nearest the format takes; at most MAX_SAMPLE_RATE)",
    },
    chapters: { type: 'boolean', description: 'One chapter per item (default true); false writes none' },
    inputChapters: {
      type: 'string',
      enum: ['keep', 'flatten'],
      description: "keep (default): an item's own chapters, moved to where it starts; flatten: one per item",
    },
    cover: { type: 'boolean', description: "false leaves the session's cover out (default: embedded)" },
    chapterTitles: {
      type: 'string',
      enum: ['tags', 'files'],
      description: 'Force chapter titles from the title tags or the file names',
    },
    ...Object.fromEntries(
      DETAIL_NAMES.map((n) => [
        n,
        {
          type: 'string',
          maxLength: detailRule(n).max,
          pattern: typedTextPattern(detailRule(n)),
          description:
            `Written as the "${DETAIL_TAGS[n]}" tag; at most ${detailRule(n).max} characters (code points), ` +
            (detailRule(n).lines ? 'newlines and tabs allowed, ' : 'one line, ') +
            'without control or bidirectional control characters',
        },
      ]),
    ),
    ...soundOptions,
    ...findingOptions,
  },
};

export const mergeSchema: FastifySchema = {
  summary: 'Merge items into one file',
  description:
    'The items in the wanted order; only each `id` is read, and the same id may appear twice. Every id must be one of ' +
    "this session's items, else nothing is queued. Answers when the merge has finished; progress goes out on the " +
    'realtime channel meanwhile, each payload carrying `requestId`. The merge goes on if the client disconnects. ' +
    "The result is stored with its format's extension and listed with its format and chapters. 20 requests a minute per session by default.",
  tags: ['merge'],
  headers: csrfHeader,
  body: {
    type: 'object',
    required: ['items'],
    properties: {
      items: {
        type: 'array',
        minItems: 1,
        description: 'At most MAX_FILES items, all from one appid',
        items: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string', minLength: 1, maxLength: 200 } },
        },
      },
      options: mergeOptions,
      requestId: {
        type: 'string',
        nullable: true,
        pattern: '^[A-Za-z0-9_.:-]{1,100}$',
        description:
          "Chosen by the client; echoed in the merge's status (GET /app/merge/status, NewStatus payloads) and usable with cancel",
      },
    },
  },
  response: {
    200: json('The merge is stored and listed on the page', { type: 'string', enum: ['success'] }),
    400: errorBody(
      'No items, an item without a valid id, more than MAX_FILES items, items of more than one appid, an invalid requestId, or an invalid option (named)',
    ),
    403: errorBody(
      "An id that is not this session's item (or unknown), no session, or no valid X-CSRF-TOKEN",
    ),
    409: errorBody('The merge was cancelled (code cancelled); nothing was kept'),
    422: fileErrorBody(
      'An input could not be used: "Could not merge: NAME is not usable audio" (one sentence for each kind of refusal), naming the original file',
    ),
    429: errorBody('Too many merges a minute from this session (20 by default)'),
    500: errorBody('The merge failed inside (details only in the server log)'),
    503: errorBody('The server is shutting down (or restarted during the merge)'),
    507: errorBody(
      "The server's disk filled up during the merge (code disk-full); no partial result is kept",
    ),
  },
};

export const deleteItemSchema: FastifySchema = {
  summary: 'Remove an item',
  description:
    'The item and its stored file are removed; it is no longer in getDataJson. An item in a merge waiting or running stays until that merge has ended.',
  tags: ['items'],
  headers: csrfHeader,
  body: idBody('The item id'),
  response: {
    200: ok,
    400: errorBody('No valid id'),
    403: errorBody("Another session's item, no session, or no valid X-CSRF-TOKEN"),
    404: errorBody('No such item'),
    409: errorBody('The item is in a merge waiting or running (code itemInMerge)'),
    503: common[503],
  },
};

export const saveItemSchema: FastifySchema = {
  summary: "Save an item's kept span and chapter title",
  description:
    'Only that span of the item (seconds of its decoded audio) is used by every later merge, cut exactly; its chapter ' +
    'title replaces the default. A field left out keeps its saved value; null puts it back (the whole file, the default title). ' +
    'getDataJson lists each item with duration, start, end, chapterTitle and defaultChapterTitle.',
  tags: ['items'],
  headers: csrfHeader,
  body: {
    type: 'object',
    required: ['id'],
    properties: {
      id: { type: 'string', minLength: 1, maxLength: 200, description: 'The item id' },
      start: {
        type: ['number', 'null'],
        minimum: 0,
        description: 'Seconds into the item where the kept span starts',
      },
      end: {
        type: ['number', 'null'],
        minimum: 0,
        description: 'Seconds into the item where the kept span ends',
      },
      chapterTitle: {
        type: ['string', 'null'],
        maxLength: CHAPTER_TITLE.max,
        pattern: typedTextPattern(CHAPTER_TITLE),
        description:
          "The item's chapter title: one line of at most 500 characters (code points), without control or bidirectional control characters (U+202A-U+202E, U+2066-U+2069)",
      },
    },
  },
  response: {
    200: ok,
    400: errorBody(
      'A span outside the item or empty (code badSpan), a chapter title over 500 characters or with control or bidirectional control characters (code badChapterTitle), ' +
        'or a value of the wrong kind; the message names the field, and so does the answer\'s "field"',
    ),
    403: errorBody("Another session's item (code foreignItem), no session, or no valid X-CSRF-TOKEN"),
    404: errorBody('No such item'),
    503: common[503],
  },
};

export const peaksSchema: FastifySchema = {
  summary: "An item's waveform",
  description:
    "For each of N equal slices of the item's decoded audio, its largest absolute sample (0 to 1, all channels). " +
    'Computed once per upload (an MP3 on the first request for them); any N is served from that. Owner only.',
  tags: ['items'],
  params: {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', description: 'The item id' } },
  },
  querystring: {
    type: 'object',
    properties: {
      bins: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_PEAK_SLICES,
        default: DEFAULT_PEAK_SLICES,
        description: `How many slices (1 to ${MAX_PEAK_SLICES}, default ${DEFAULT_PEAK_SLICES})`,
      },
    },
  },
  response: {
    200: json('The peaks', {
      type: 'object',
      required: ['duration', 'peaks'],
      properties: {
        duration: { type: 'number', description: "Seconds: the item's decoded duration" },
        peaks: { type: 'array', items: { type: 'number', minimum: 0, maximum: 1 } },
      },
    }),
    400: errorBody('bins is not a whole number from 1 to the most (code badRequest, field "bins")'),
    403: errorBody("Another session's item (code foreignItem), or no session"),
    404: errorBody('No such item'),
  },
};

/** `maxFiles`: the most ids one order may hold (MAX_FILES). */
export const saveOrderSchema = (maxFiles: number): FastifySchema => ({
  summary: 'Save the order of the items',
  description:
    "From then on getDataJson lists this session's items of that appid in this order (items uploaded later at the end). " +
    "Every id must be one of this session's items of that appid, else nothing is saved.",
  tags: ['items'],
  headers: csrfHeader,
  body: {
    type: 'object',
    required: ['appid', 'ids'],
    properties: {
      appid: { type: 'string', pattern: APPID_PATTERN },
      ids: {
        type: 'array',
        items: { type: 'string', minLength: 1, maxLength: 200 },
        maxItems: maxFiles,
        uniqueItems: true,
      },
    },
  },
  response: {
    200: ok,
    400: errorBody('No valid appid, or ids that are not a list of distinct ids'),
    403: errorBody(
      "An id not this session's item of that appid (code foreignItem), no session, or no valid X-CSRF-TOKEN",
    ),
    503: common[503],
  },
});

export const mergeStatusSchema: FastifySchema = {
  summary: "This session's latest merge",
  description:
    'What a reloaded page needs to show a merge still running, or how the last one ended. Sent with Cache-Control: no-store.',
  tags: ['merge'],
  response: {
    200: json('The latest merge, or {"state": "none"}', {
      type: 'object',
      required: ['state'],
      properties: {
        requestId: {
          type: 'string',
          nullable: true,
          description: 'The requestId given to mergemp3, else null',
        },
        state: { type: 'string', enum: ['none', 'queued', 'running', 'succeeded', 'failed', 'cancelled'] },
        percent: {
          type: 'number',
          nullable: true,
          description: '0 to 100 while running and when done; null while waiting and after a failure',
        },
        text: { type: 'string', description: 'The progress text or a message for a person' },
        code: {
          type: 'string',
          description:
            'What the text says as a stable word, for a client that words it in its own language: "queued" while ' +
            'waiting, "cancelled", or the error code of a failure (absent when not known)',
        },
        ahead: {
          type: 'integer',
          description: 'While queued: how many merges are ahead of this one, when the queue knows',
        },
        file: {
          type: ['string', 'integer'],
          description:
            "A failure about one input: the person's own name of that file, which the code's sentence names. While " +
            'the merge runs: the input being worked on, 1-based',
        },
        stage: {
          type: 'string',
          enum: ['waiting', 'reading', 'encoding', 'writing', 'storing'],
          description:
            'While queued or running: waiting in line, reading the inputs (probing, measuring), encoding or joining, ' +
            'writing the index and tags, storing the finished file',
        },
        files: {
          type: 'integer',
          nullable: true,
          description: 'While running: how many inputs the merge has',
        },
        secondsLeft: {
          type: 'number',
          nullable: true,
          description:
            'While running: seconds left at the pace measured so far; null until that pace is known',
        },
      },
    }),
    403: errorBody('No session (load the page first)'),
    503: common[503],
  },
};

export const cancelSchema: FastifySchema = {
  summary: 'Cancel a merge',
  description:
    'Stops the named merge of this session, or without requestId its newest merge waiting or running. Answers once it has ' +
    'stopped: its processes are gone and nothing is left behind; its mergemp3 call answers 409.',
  tags: ['merge'],
  headers: csrfHeader,
  body: {
    type: 'object',
    properties: {
      requestId: { anyOf: [{ type: 'string', minLength: 1, maxLength: 100 }, { type: 'null' }] },
    },
  },
  response: {
    200: ok,
    400: errorBody('A requestId that is not text'),
    403: common[403],
    404: errorBody('No merge of this session is waiting or running (code noMerge)'),
    503: common[503],
  },
};

export const deleteResultSchema: FastifySchema = {
  summary: 'Delete a merged result',
  description: 'The result and its file are gone: no longer listed on the page nor served.',
  tags: ['files'],
  headers: csrfHeader,
  body: idBody('The result id (data-result-id on the page)'),
  response: {
    200: ok,
    400: errorBody('No valid id'),
    403: errorBody("Another session's result, no session, or no valid X-CSRF-TOKEN"),
    404: errorBody('No such result'),
    503: common[503],
  },
};

export const resultCoverSchema: FastifySchema = {
  summary: "A merged result's cover",
  description:
    "The cover embedded in the result when it was made (the session's then, else the first input's own " +
    "picture), kept with it: changing or removing the session's cover later leaves it as it is. Deleting the " +
    'result deletes it. Owner only.',
  tags: ['files'],
  params: {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', description: 'The result id (data-result-id on the page)' } },
  },
  response: {
    200: binary('The cover, sent with Cache-Control: private, max-age=86400 and an ETag', 'image/*'),
    304: { description: 'Not modified: If-None-Match named this cover' },
    403: errorBody("Another session's result, or no session"),
    404: errorBody('No such result, or it has no cover'),
    503: common[503],
  },
};

const tusAnswers = {
  403: common[403],
  404: errorBody('No such upload of this session'),
  429: errorBody('Too many tus requests a minute from this session'),
  503: common[503],
};

/** The tus 1.0 routes (creation, termination); @tus/server answers after our own checks. */
export const tusCreateSchema = (limitMb: string): FastifySchema => ({
  summary: 'Start a resumable upload (tus 1.0 creation)',
  description:
    'Headers Tus-Resumable: 1.0.0, Upload-Length (required), Upload-Metadata with filename and appid (base64), and ' +
    `X-CSRF-TOKEN. A declared length over ${limitMb} MB (MAX_FILE_MB) is refused before a byte is sent; MAX_FILES counts ` +
    'uploads in progress. A creation may carry bytes (Content-Type application/offset+octet-stream); when they are all ' +
    'the file, it is probed and stored as an item like a multipart upload.',
  tags: ['items'],
  headers: csrfHeader,
  response: {
    200: {
      description:
        'Not sent by this route: a creation answers 201 (listed for completeness of the reference)',
    },
    201: json(
      'Created: Location holds the upload\'s URL; when the creation carried the whole file, the body is {"items":[item], "errors":[]}',
      {
        type: 'object',
      },
    ),
    400: errorBody('No or bad Upload-Length, bad Upload-Metadata, or an invalid appid'),
    409: errorBody('The session holds MAX_FILES files and uploads (code tooManyFiles)'),
    413: errorBody('The declared length is over MAX_FILE_MB'),
    422: errorBody('The finished file is not usable audio; nothing is kept'),
    ...tusAnswers,
    507: common[507],
  },
});

export const tusOptionsSchema: FastifySchema = {
  summary: 'What the tus server supports',
  description: 'Tus-Version, Tus-Extension (creation, creation-with-upload, termination) and Tus-Max-Size.',
  tags: ['items'],
  response: {
    200: { description: 'The tus capabilities, in headers' },
    204: { description: 'The tus capabilities, in headers' },
  },
};

export const tusUploadSchema: FastifySchema = {
  summary: 'Resume, send or end a resumable upload (tus 1.0 HEAD, PATCH, DELETE)',
  description:
    'Only the session that created the upload reaches it, with X-CSRF-TOKEN. HEAD: Upload-Offset, where to resume. ' +
    'PATCH (application/offset+octet-stream, Upload-Offset): more bytes; 204 with the new offset, or, with the last byte, ' +
    '200 {"items":[item], "errors":[]} once the file is probed and stored, or the reason it was refused (nothing kept). ' +
    'DELETE: 204, the upload and its bytes are gone.',
  tags: ['items'],
  headers: csrfHeader,
  params: {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string', description: 'The upload id from Location' } },
  },
  response: {
    200: json('HEAD: the offset in headers; a PATCH that finished the file: the stored item', {
      type: 'object',
      properties: {
        items: { type: 'array', items: audioItem },
        errors: { type: 'array', items: { type: 'object' } },
      },
    }),
    204: { description: 'PATCH: bytes taken (Upload-Offset); DELETE: the upload is gone' },
    409: errorBody('PATCH at a wrong Upload-Offset, or the session is full'),
    413: errorBody('More bytes than declared'),
    422: errorBody('The finished file is not usable audio; nothing is kept'),
    ...tusAnswers,
    507: common[507],
  },
};

const fileParams = (what: string) => ({
  type: 'object',
  required: ['sid', 'file'],
  properties: {
    sid: { type: 'string', description: "The session id; must be the requester's" },
    file: { type: 'string', description: what },
  },
});

const fileAnswers = (contentType: string) => ({
  200: binary('The whole file (Accept-Ranges: bytes)', contentType),
  206: binary('The single byte range asked for with Range', contentType),
  403: errorBody("Another session's sid, or no session"),
  404: errorBody('No such file in this session'),
  416: errorBody('The range starts past the end (Content-Range: bytes */SIZE)'),
});

export const uploadFileSchema: FastifySchema = {
  summary: 'Play an uploaded file',
  description:
    'The stored upload, for the session that owns it, with single-range support for seeking players.',
  tags: ['files'],
  params: fileParams('{newfilename}.{format}, as in the item'),
  response: fileAnswers('audio/*'),
};

/** GET /widget/* is @fastify/static's route (registered in app.ts), documented here by its URL. */
export const pluginRouteSchemas: Record<string, FastifySchema> = {
  '/widget/*': {
    summary: 'The widget script',
    description:
      'The built widget (dist/widget/), chiefly /widget/audio-merge.js, one self-contained ES module.',
    tags: ['widget'],
    response: {
      200: binary('The file', 'text/javascript'),
      404: errorBody('No such file'),
    },
  },
};

export const resultFileSchema: FastifySchema = {
  summary: 'Play or download a merged file',
  description:
    "A result of this session, with its format's extension and MIME type. With ?download=1, Content-Disposition: " +
    'attachment with its download name (its title, else its first chapter, and the date; never twice the same in a session).',
  tags: ['files'],
  params: fileParams('{id}.{format}: mp3, m4b, m4a, opus, ogg, flac or wav'),
  querystring: {
    type: 'object',
    properties: { download: { type: 'string', enum: ['1'], description: '1: send as an attachment' } },
  },
  response: fileAnswers('audio/*'),
};

export const healthzSchema: FastifySchema = {
  summary: 'Liveness, for load balancers',
  description: 'Answers while the process is up, whatever the database, queue or files do.',
  tags: ['health'],
  response: {
    200: json('The process is up', {
      type: 'object',
      required: ['ok'],
      properties: { ok: { type: 'boolean', enum: [true] } },
    }),
  },
};

const readiness = {
  type: 'object',
  required: ['ok', 'checks'],
  properties: {
    ok: { type: 'boolean' },
    checks: {
      type: 'object',
      description:
        'Each dependency ("database", "files", and "queue" with REDIS_URL): "ok" or "unreachable" (no answer within 2 s counts as unreachable)',
      additionalProperties: { type: 'string', enum: ['ok', 'unreachable'] },
    },
  },
};

export const readyzSchema: FastifySchema = {
  summary: 'Readiness, for load balancers',
  description:
    'Answers 200 only while everything a request needs answers: the database, the files (DATA_DIR or the bucket) and, with REDIS_URL, the queue.',
  tags: ['health'],
  response: {
    200: json('Ready', readiness),
    503: json('Something is unreachable; `error` names what', {
      ...readiness,
      properties: { ...readiness.properties, error: { type: 'string' } },
    }),
  },
};

const appidField = { type: 'string', pattern: APPID_PATTERN, description: "The widget's appid" };

export const coverUploadSchema: FastifySchema = {
  summary: "Set the session's cover",
  description:
    'multipart/form-data with one part `file`: a JPEG or PNG of at most 10 MB and 4096 x 4096 pixels. It replaces ' +
    'the one before; every later merge embeds it unless its options say `"cover": false`.',
  tags: ['book'],
  headers: csrfHeader,
  consumes: ['multipart/form-data'],
  response: {
    200: ok,
    400: errorBody('Not multipart, no file part, or not a JPEG or PNG within the limits (says which)'),
    403: common[403],
    503: common[503],
  },
};

export const coverSchema: FastifySchema = {
  summary: "The session's cover",
  description:
    'The image the session set with POST /app/merge/cover. With `?probe=1`, a session without one is answered 204 (no body) instead of 404.',
  tags: ['book'],
  querystring: {
    type: 'object',
    properties: {
      probe: { type: 'string', description: 'Any value: answer 204 rather than 404 when there is no cover' },
    },
  },
  response: {
    200: binary('The cover, sent with Cache-Control: private, no-cache and an ETag', 'image/*'),
    204: { description: 'With ?probe: the session has no cover' },
    304: { description: 'Not modified: If-None-Match named the cover as it is' },
    403: common[403],
    404: errorBody('The session has no cover'),
  },
};

export const deleteCoverSchema: FastifySchema = {
  summary: "Remove the session's cover",
  description: 'Later merges embed none (unless an input carries its own).',
  tags: ['book'],
  headers: csrfHeader,
  response: { 200: ok, 403: common[403], 503: common[503] },
};

export const tagDetailsSchema: FastifySchema = {
  summary: "The details a merge takes from the inputs' tags",
  description:
    "What a merge of the session's files (in list order) writes when no detail is given: each detail from the first file whose tags have it (never the description or comment), the title from the album they all share. The page shows them as the Book details placeholders.",
  tags: ['book'],
  querystring: {
    type: 'object',
    required: ['appid'],
    properties: { appid: { type: 'string', pattern: APPID_PATTERN } },
  },
  response: {
    200: json('The inherited details, by option name', {
      type: 'object',
      required: ['details'],
      properties: {
        details: {
          type: 'object',
          properties: Object.fromEntries(
            DETAIL_NAMES.filter((n) => n !== 'description' && n !== 'comment').map((n) => [
              n,
              { type: 'string' },
            ]),
          ),
        },
      },
    }),
    403: common[403],
  },
};

export const saveChoicesSchema: FastifySchema = {
  summary: "Keep the person's choices",
  description:
    "The keys of mergemp3's options (format, quality, chapters, sound, details), at most 16,384 characters of JSON, kept for the " +
    'session and the appid: a reload, a finished merge or a cancel brings them back. Each is checked as mergemp3 ' +
    'checks it; an invalid one is a 400 naming it, nothing saved.',
  tags: ['book'],
  headers: csrfHeader,
  body: {
    type: 'object',
    required: ['appid', 'choices'],
    properties: { appid: appidField, choices: { type: 'object', description: "mergemp3's options" } },
  },
  response: {
    200: ok,
    400: errorBody('No valid appid, or an invalid or unknown choice (named)'),
    403: common[403],
    413: errorBody('The choices are more than 16,384 characters'),
    503: common[503],
  },
};

export const choicesSchema: FastifySchema = {
  summary: "The person's kept choices",
  description: 'What saveChoices kept for this session and appid; `{}` before any.',
  tags: ['book'],
  querystring: { type: 'object', required: ['appid'], properties: { appid: appidField } },
  response: {
    200: json('The choices', { type: 'object' }),
    400: errorBody('No valid appid'),
    403: common[403],
  },
};
