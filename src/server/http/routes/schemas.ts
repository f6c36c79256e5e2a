// The documented shape of every route: what docs/openapi.json is generated from
// (`npm run docs:api`) and what docs/api.md explains. Documentation only: the handlers check their
// own input and say what is wrong in their own words, so these schemas neither validate a request
// (an ajv message would replace the route's) nor filter a response (a response schema would strip
// fields it does not name). Routes whose schema does validate (getDataJson's body) keep theirs.
import type { FastifySchema, RouteShorthandOptions } from 'fastify';
// Types only (erased at run time): the OpenAPI fields (summary, tags, ...) @fastify/swagger adds to FastifySchema.
import type {} from '@fastify/swagger';

/** What an appid may be: it becomes part of a channel name. */
export const APPID_PATTERN = '^[A-Za-z0-9_.-]{1,100}$';

/** Route options that attach `schema` for the reference and leave requests and answers untouched. */
export function documented(schema: FastifySchema): Pick<RouteShorthandOptions, 'schema' | 'validatorCompiler' | 'serializerCompiler'> {
  return {
    schema,
    validatorCompiler: () => () => true,
    serializerCompiler: () => (data) => JSON.stringify(data),
  };
}

/** A response schema that only documents (used with a pass-through serializer). */
const json = (description: string, schema: Record<string, unknown>) => ({ description, ...schema });

const errorBody = (description: string) =>
  json(description, {
    type: 'object',
    required: ['error'],
    properties: { error: { type: 'string', description: 'What is wrong, for a person; names the file when one is at fault' } },
  });

const binary = (description: string, contentType: string) => ({
  description,
  content: { [contentType]: { schema: { type: 'string', format: 'binary' } } },
});

const common = {
  403: errorBody('No session (load the page first), a missing or wrong X-CSRF-TOKEN, or something of another session'),
  503: errorBody('The server is shutting down; try again shortly'),
};

export const audioItem = {
  type: 'object',
  required: ['id', 'sid', 'newfilename', 'format', 'filename'],
  properties: {
    id: { type: 'string', description: 'The item id; the only field of an item the server reads back' },
    sid: { type: 'string', description: 'The public session id (the play path and the channel name hold it)' },
    newfilename: { type: 'string', description: 'Stored name, server-made; used in the play path' },
    format: { type: 'string', description: 'Container the probe found (mp3, wav, flac, ogg, ...); the extension of the play path' },
    filename: { type: 'string', description: "The client's file name, for display only (base name, control characters removed)" },
    duration: { type: 'number', description: 'Seconds, from the probe' },
    size: { type: 'number', description: 'Bytes stored' },
  },
};

const csrfHeader = {
  type: 'object',
  properties: { 'x-csrf-token': { type: 'string', description: 'The token of the page\'s <meta name="csrf-token">' } },
};

export const hostPageSchema: FastifySchema = {
  summary: 'The host page',
  description:
    'Starts a session when the request has none (cookie am_session, HttpOnly, SameSite=Lax). Holds the csrf-token meta tag, ' +
    'the upload form, the widget element and this session\'s merged results. At most 300 new sessions a minute per address.',
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
      appid: { type: 'string', pattern: APPID_PATTERN, description: 'The widget\'s appid (default: the server\'s)' },
      _csrf: { type: 'string', description: 'The CSRF token, for a form that cannot send the header; before any file' },
      files: { type: 'array', items: { type: 'string', format: 'binary' }, description: 'One or more audio files' },
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
    409: errorBody('Every file was refused and the first because the session holds MAX_FILES files; `errors` lists each'),
    413: errorBody('Every file was refused and the first as larger than MAX_FILE_MB, or too many files or fields in one request'),
    422: errorBody('Every file was refused and the first as not usable audio; `errors` lists each'),
    429: errorBody('Too many uploads a minute from this session (120 by default)'),
    503: common[503],
  },
});

export const getDataJsonSchema: FastifySchema = {
  summary: "This session's items",
  description: 'The items of this session for that appid, in upload order, as JSON text.',
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

export const mergeSchema: FastifySchema = {
  summary: 'Merge items into one MP3',
  description:
    'The items in the wanted order; only each `id` is read, and the same id may appear twice. Every id must be one of ' +
    'this session\'s items, else nothing is queued. Answers when the merge has finished; progress goes out on the ' +
    'realtime channel meanwhile. The merge goes on if the client disconnects. 20 requests a minute per session by default.',
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
        items: { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 200 } } },
      },
    },
  },
  response: {
    200: json('The merge is stored and listed on the page', { type: 'string', enum: ['success'] }),
    400: errorBody('No items, an item without a valid id, more than MAX_FILES items, or items of more than one appid'),
    403: errorBody('An id that is not this session\'s item (or unknown), no session, or no valid X-CSRF-TOKEN'),
    422: errorBody('An input could not be used: "Could not merge: NAME is not audio (...)" naming the original file'),
    429: errorBody('Too many merges a minute from this session (20 by default)'),
    500: errorBody('The merge failed inside (details only in the server log)'),
    503: errorBody('The server is shutting down (or restarted during the merge)'),
  },
};

const fileParams = (what: string) => ({
  type: 'object',
  required: ['sid', 'file'],
  properties: {
    sid: { type: 'string', description: 'The session id; must be the requester\'s' },
    file: { type: 'string', description: what },
  },
});

const fileAnswers = (contentType: string) => ({
  200: binary('The whole file (Accept-Ranges: bytes)', contentType),
  206: binary('The single byte range asked for with Range', contentType),
  403: errorBody('Another session\'s sid, or no session'),
  404: errorBody('No such file in this session'),
  416: errorBody('The range starts past the end (Content-Range: bytes */SIZE)'),
});

export const uploadFileSchema: FastifySchema = {
  summary: 'Play an uploaded file',
  description: 'The stored upload, for the session that owns it, with single-range support for seeking players.',
  tags: ['files'],
  params: fileParams('{newfilename}.{format}, as in the item'),
  response: fileAnswers('audio/*'),
};

/** GET /widget/* is @fastify/static's route (registered in app.ts), documented here by its URL. */
export const pluginRouteSchemas: Record<string, FastifySchema> = {
  '/widget/*': {
    summary: 'The widget script',
    description: 'The built widget (dist/widget/), chiefly /widget/audio-merge.js, one self-contained ES module.',
    tags: ['widget'],
    response: {
      200: binary('The file', 'text/javascript'),
      404: errorBody('No such file'),
    },
  },
};

export const resultFileSchema: FastifySchema = {
  summary: 'Play or download a merged file',
  description: 'A result of this session. With ?download=1, Content-Disposition: attachment with its download name.',
  tags: ['files'],
  params: fileParams('{id}.mp3'),
  querystring: {
    type: 'object',
    properties: { download: { type: 'string', enum: ['1'], description: '1: send as an attachment' } },
  },
  response: fileAnswers('audio/mpeg'),
};

export const healthzSchema: FastifySchema = {
  summary: 'Liveness, for load balancers',
  description: 'Answers while the process is up, whatever the database, queue or files do.',
  tags: ['health'],
  response: {
    200: json('The process is up', { type: 'object', required: ['ok'], properties: { ok: { type: 'boolean', enum: [true] } } }),
  },
};

const readiness = {
  type: 'object',
  required: ['ok', 'checks'],
  properties: {
    ok: { type: 'boolean' },
    checks: {
      type: 'object',
      description: 'Each dependency ("database", "files", and "queue" with REDIS_URL): "ok" or "unreachable" (no answer within 2 s counts as unreachable)',
      additionalProperties: { type: 'string', enum: ['ok', 'unreachable'] },
    },
  },
};

export const readyzSchema: FastifySchema = {
  summary: 'Readiness, for load balancers',
  description: 'Answers 200 only while everything a request needs answers: the database, the files (DATA_DIR or the bucket) and, with REDIS_URL, the queue.',
  tags: ['health'],
  response: {
    200: json('Ready', readiness),
    503: json('Something is unreachable; `error` names what', { ...readiness, properties: { ...readiness.properties, error: { type: 'string' } } }),
  },
};
