// Every word the widget shows or speaks, in English: the table every other language follows key
// for key (Locale is this object's type, so a translation missing a key does not compile). The
// make label and the title come from the host page.
import { formatsFor } from './format.js';

const f = formatsFor('en');

export const en = {
  // The list view
  loading: 'Loading your files…',
  empty: 'Nothing to merge yet. Upload some audio files and they will appear here.',
  loadFailed: (reason: string) => `Your files could not be loaded: ${reason}. Reload the page to try again.`,
  hint: 'Drag a row to move it, or press Space on it, then ↑ ↓ Home End, and Space to drop.',
  uploading: 'Uploading: new files join the end of the list.',
  rowLabel: (name: string, position: number, count: number) =>
    `${name}, position ${f.number(position)} of ${f.number(count)}`,
  rowRole: 'sortable row',
  position: (n: number) => f.number(n),
  duration: (seconds: number) => f.duration(seconds),
  play: (name: string) => `Play ${name}`,
  remove: (name: string) => `Remove ${name}`,
  removed: (name: string) => `Removed ${name}.`,
  undo: 'Undo',
  undoLabel: (name: string) => `Undo removing ${name}`,
  removeFailed: (name: string, reason: string) => `${name} could not be removed: ${reason}`,
  orderNotSaved: (reason: string) => `The new order could not be saved: ${reason}`,
  dismiss: 'Dismiss',

  // Trimming a row on its waveform
  waveform: (name: string) => `Waveform of ${name}`,
  trimStart: (name: string) => `Start of the part of ${name} kept`,
  trimEnd: (name: string) => `End of the part of ${name} kept`,
  /** A position, for screen readers: whole minutes and seconds to a tenth. */
  timeText: (minutes: number, seconds: number) =>
    (minutes > 0 ? f.plural(minutes, { one: '{n} minute ', other: '{n} minutes ' }) : '') +
    f.plural(seconds, { one: '{n} second', other: '{n} seconds' }),
  /** A trimmed row's kept length, for screen readers and as its tooltip (the row shows the length alone). */
  keptLabel: (length: string, whole: string) => `${length} kept of ${whole}`,
  resetTrimLabel: (name: string) => `Keep all of ${name}`,
  spanNotSaved: (name: string, reason: string) => `The cut of ${name} could not be saved: ${reason}`,

  // A row's chapter title (the default title shows as the placeholder)
  chapterTitle: 'Chapter',
  chapterTitleLabel: (name: string) => `Chapter title of ${name}`,
  chapterTitleNotSaved: (reason: string) => `This chapter title was not saved: ${reason}.`,
  /** In place of the field, for a file whose own chapters the merge keeps (n > 0). */
  keepsOwnChapters: (n: number) =>
    f.plural(n, { one: 'Keeps its own chapter', other: 'Keeps its {n} chapters' }),
  keepsOwnChaptersHint:
    'This file carries chapters of its own: the merge keeps them, with their titles, from where the file starts.',

  // Dragging, spoken by the live region
  pickedUp: (name: string, position: number, count: number) =>
    `Picked up ${name}. It is at position ${f.number(position)} of ${f.number(count)}.`,
  movedTo: (name: string, position: number, count: number) =>
    `${name} was moved to position ${f.number(position)} of ${f.number(count)}.`,
  offList: (name: string) => `${name} is no longer over the list.`,
  droppedAt: (name: string, position: number, count: number) =>
    `${name} was dropped at position ${f.number(position)} of ${f.number(count)}.`,
  dropped: (name: string) => `${name} was dropped.`,
  dragCancelled: (name: string, position: number, count: number) =>
    `Moving was cancelled. ${name} stays at position ${f.number(position)} of ${f.number(count)}.`,
  someFile: 'The file',
  dragInstructions:
    'To move this file, press Space. Use the up and down arrow keys to change its position, Home or End to move it ' +
    'to the top or the bottom, Space again to drop it, or Escape to cancel.',

  // The output choice beside make (data-formats with more than one format)
  format: 'Format',
  chapters: 'Chapters',
  /** In the format list. */
  formatLabels: {
    mp3: 'MP3',
    m4b: 'M4B audiobook',
    m4a: 'M4A (AAC)',
    opus: 'Opus',
    ogg: 'Ogg Vorbis',
    flac: 'FLAC',
    wav: 'WAV',
  },
  /** Short format names, for the hint beside the make button. */
  formatNames: { mp3: 'MP3', m4b: 'M4B', m4a: 'M4A', opus: 'Opus', ogg: 'Ogg', flac: 'FLAC', wav: 'WAV' },
  /** Beside the make button when its label names another format than the chosen one. */
  makesFormat: (format: string) => `Makes ${format}`,
  noChapters: (format: string) => `${format} files carry no chapters.`,
  quality: 'Quality',
  qualityLabels: {
    auto: 'As the files are',
    speechSmall: 'Speech, small: 64 kb/s mono',
    speech: 'Speech: 96 kb/s mono',
    standard: 'Standard: 128 kb/s',
    high: 'High: 192 kb/s',
  },

  // The book's details (the details panel)
  detailsToggle: 'Book details',
  detailLabels: {
    title: 'Title',
    artist: 'Author',
    narrator: 'Narrator',
    album: 'Album',
    genre: 'Genre',
    year: 'Year',
    description: 'Description',
  },
  cover: 'Cover',
  coverDrop: 'Drop a JPEG or PNG here, or choose one',
  coverChoose: 'Choose an image',
  coverRemove: 'Remove the cover',
  coverFailed: (reason: string) => `The cover could not be used: ${reason}`,

  // The sound options (data-sound="on", or more than one format)
  soundToggle: 'Sound options',
  soundSet: (n: number) => `${f.number(n)} on`,
  loudness: 'Match loudness',
  loudnessHelp: 'Brings every file to the same loudness, so nobody has to reach for the volume.',
  loudnessTarget: 'Loudness target',
  targetStereo: '-16 LUFS (stereo)',
  targetMono: '-19 LUFS (mono speech)',
  between: 'Between files',
  betweenHelp: 'Nothing, a pause of silence, or the end of each file fading into the next.',
  betweenNone: 'Nothing',
  betweenGap: 'Silence',
  betweenCrossfade: 'Crossfade',
  seconds: 'Seconds',
  badLength: (what: 'gap' | 'crossfade', max: number) =>
    `${what === 'gap' ? 'The silence between files' : 'The crossfade'} must be a number of seconds above 0 and at most ${f.number(max)}.`,
  trimSilence: 'Trim silence',
  trimSilenceHelp: 'Cuts the dead air at the start and the end of each file.',
  gapless: 'Gapless',
  gaplessHelp: 'Removes the tiny pauses encoders add, so an album plays straight through.',

  // The progress view
  progressGroup: 'Merging your files',
  progressFailedGroup: 'The merge did not finish',
  progressBar: 'Merge progress',
  percent: (p: number) => f.percent(p),
  stages: {
    waiting: 'Waiting',
    reading: 'Reading the files',
    encoding: 'Encoding',
    writing: 'Writing the file',
    storing: 'Storing the result',
  },
  /** The input being worked on: "file 37 of 500". */
  fileOf: (file: number, files: number) => `file ${f.number(file)} of ${f.number(files)}`,
  /** An estimate of the time left, from the pace so far. */
  timeLeft: (seconds: number) => `about ${f.roughDuration(seconds)} left`,
  waitingToStart: 'Waiting to start',
  waitingAhead: (ahead: number) =>
    f.plural(ahead, {
      one: 'Waiting: {n} merge ahead of yours',
      other: 'Waiting: {n} merges ahead of yours',
    }),
  cancel: 'Cancel merge',
  cancelling: 'Cancelling…',
  reload: 'Reload',
  mergeFailed: 'The merge failed.',
  mergeCancelled: 'The merge was cancelled.',
  connectionLost: 'Lost the connection to the server; waiting for it to come back…',
  expired: 'This page has expired; reload to start again',

  /** The server's refusals and failures, by their code; a code not here shows the server's own words. */
  serverMessages: {
    badRequest: 'The request is not valid.',
    notFound: 'Not found: it may have been removed already.',
    noMerge: 'No merge of yours is waiting or running.',
    foreignItem: 'A file in the list does not belong to this page.',
    itemInMerge: 'That file is in a merge under way; remove it when the merge has ended.',
    endNotRecorded:
      'Your merge has ended, but the server could not record how; reload the page in a moment to see it.',
    tooLarge: 'The file is too large.',
    tooManyFiles: 'There are too many files in this list.',
    noItems: 'There is nothing to merge.',
    rateLimited: 'Too many requests; wait a moment and try again.',
    unavailable: 'The server is shutting down; try again shortly.',
    internal: 'Something went wrong on the server.',
    mergeFailed: 'The merge failed on the server; please try again.',
    mergeStopped: 'The server is shutting down and stopped this merge; press make again shortly.',
    interrupted: 'The server restarted while this merge was running; please press make again.',
    itemGone: 'Could not merge: a file in the list was deleted before the merge started.',
    empty: 'The file is empty.',
    unreadable: 'The file cannot be read.',
    'not-audio': 'The file is not usable audio.',
    'bad-rate': 'The file claims a sample rate no real audio has.',
    'bad-mp3': 'The MP3 file is damaged.',
    'free-format': 'The MP3 file uses a free-format bit rate, which cannot be joined.',
    'reencode-failed': 'The file could not be re-encoded.',
    'output-unwritable': 'The server could not write the merged file.',
    'disk-full': "The server's disk is full; try again later.",
    'tool-missing': 'The server cannot run its audio tools.',
    cancelled: 'The merge was cancelled.',
    csrf: 'This page has expired; reload it to go on.',
    noSession: 'This page has expired; reload it to go on.',
    foreignFile: 'That file does not belong to this page.',
    foreignChannel: "That merge's progress does not belong to this page.",
    bodyTooLarge: 'The request is too large.',
    unsupportedMediaType: 'The server could not read the request.',
    rangeNotSatisfiable: 'That part of the file does not exist.',
    tusRefused: 'The server refused the resumable upload.',
    notReady: 'The server is not ready yet; try again shortly.',
    'merge-too-long':
      'The merge is too long: together the files last longer than this server merges at once. Remove some and try again.',
    'too-many-merges':
      'You already have as many merges waiting or running as this server allows; wait for one to end.',
    'format-change': 'The MP3 file changes format part-way and cannot be joined.',
    'bad-mp4': 'The MP4 file is damaged.',
    'measure-failed': 'The loudness of the file could not be measured.',
    'not-image': 'The cover is not a JPEG or PNG image.',
    'same-as-output': 'A file is also the output.',
    badCover: 'The cover must be a JPEG or PNG image of at most 10 MB and 4096 × 4096 pixels.',
    choicesTooLarge: 'Your choices are too large to keep (more than 16 KB).',
    'chapter-past-end': 'A chapter starts past the end of the merged file.',
    'too-many-chapters':
      'There are more chapters than the format holds (255 in MP3 and M4B, 999 in the others).',
    badSpan: 'The part of the file kept does not fit the file.',
    badChapterTitle:
      'A chapter title is one line of at most 500 characters, without control or bidirectional control characters.',
    'bad-trim': "A file's kept part does not fit the file.",
  },

  /** A merge's failure about one input, naming it (the name comes isolated from the text around it). */
  inputFailures: {
    empty: (file: string) => `Could not merge: ${file} is empty`,
    unreadable: (file: string) => `Could not merge: ${file} cannot be read`,
    'not-audio': (file: string) => `Could not merge: ${file} is not usable audio`,
    'bad-rate': (file: string) => `Could not merge: ${file} claims a sample rate no real audio has`,
    'bad-mp3': (file: string) => `Could not merge: ${file} is a damaged MP3 file`,
    'free-format': (file: string) =>
      `Could not merge: ${file} uses a free-format MP3 bit rate, which cannot be joined`,
    'format-change': (file: string) =>
      `Could not merge: ${file} changes its MP3 format part-way and cannot be joined`,
    'bad-mp4': (file: string) => `Could not merge: ${file} is a damaged MP4 file`,
    'reencode-failed': (file: string) => `Could not merge: ${file} could not be re-encoded`,
    'measure-failed': (file: string) => `Could not merge: ${file} could not be measured for loudness`,
    'not-image': (file: string) => `Could not merge: ${file} is not a JPEG or PNG image`,
    'same-as-output': (file: string) => `Could not merge: ${file} is also the output`,
  },

  // The upload area the script builds around the host page's upload form
  chooseFiles: 'Choose audio files',
  orDropThem: 'or drop them here. Several at once are fine.',
  uploadWaiting: 'Waiting',
  uploadChecking: 'Checking…',
  uploadSent: 'Sent; waits for the files before it',
  uploaded: 'Uploaded',
  uploadRefused: 'Refused',
  fileSize: (bytes: number) => f.size(bytes),
  overPageLimit: (name: string, mb: number) => `${name} is larger than the ${f.number(mb)} MB limit.`,
  uploadUnreached: (name: string) => `${name}: the upload did not reach the server (network error).`,
  uploadNotStored: (name: string) => `${name} was not stored.`,
  uploadNoItem: (name: string) =>
    `${name} was sent whole, but the server did not say it stored it. Add the file again.`,
  uploadTooLarge: (name: string) => `${name} is too large for the server.`,
  uploadHttpRefused: (name: string, status: number) =>
    `${name}: the server refused the upload (HTTP ${status}).`,
  /** Said once when a batch of uploads has ended. */
  batchSummary: (stored: number, tried: number) =>
    stored === tried
      ? f.plural(stored, {
          one: '{n} file uploaded. It is at the end of the list to order.',
          other: '{n} files uploaded. They are at the end of the list to order.',
        })
      : `${f.number(stored)} of ${f.plural(tried, { one: '{n} file', other: '{n} files' })} uploaded. ` +
        (stored === 1
          ? 'It is at the end of the list to order.'
          : 'They are at the end of the list to order.'),

  // The host page's merged results
  merged: (format: string) => `merged ${format.toUpperCase()}`,
  mergedOf: (what: string, first: string, more: number) =>
    `${what} of ${first}${more > 0 ? f.plural(more, { one: ' and {n} more', other: ' and {n} more' }) : ''}`,
  mergedAt: (what: string, when: string) => `${what}, ${when}`,
  dateTime: (at: Date) => f.dateTime(at),
  playResult: (name: string) => `Play ${name}`,
  downloadResult: (name: string) => `Download ${name}`,
  deleteResult: 'Delete',
  deleteResultLabel: (name: string) => `Delete ${name}`,
  deletingResult: 'Deleting…',
  deleteResultFailed: (reason: string) => `Could not delete this file: ${reason}`,
  noResults: 'No merged files yet.',
  /** A result's cover image, for a reader who cannot see it. */
  resultCover: (title: string) => `Cover of ${title}`,
  /** A result with a book title: its name for the player and links, "merged M4B of …: The Book". */
  bookResult: (title: string, what: string) => `${what}: ${title}`,
};

/** One language's table: every key of the English one, each of the same kind. */
export type Locale = typeof en;
export type ServerMessageCode = keyof Locale['serverMessages'];
