// Every word the widget shows or speaks, in one place, so wording is reviewed (and one day
// translated) without reading the components. The make label and the title come from the host page.

export const texts = {
  // The list view
  loading: 'Loading your files…',
  empty: 'Nothing to merge yet. Upload some audio files and they will appear here.',
  loadFailed: (reason: string) => `Your files could not be loaded: ${reason}. Reload the page to try again.`,
  hint: 'Drag a row to move it, or press Space on it, then ↑ ↓ Home End, and Space to drop.',
  uploading: 'Uploading: new files join the end of the list.',
  rowLabel: (name: string, position: number, count: number) => `${name}, position ${position} of ${count}`,
  rowRole: 'sortable row',
  play: (name: string) => `Play ${name}`,
  remove: (name: string) => `Remove ${name}`,
  removed: (name: string) => `Removed ${name}.`,
  undo: 'Undo',
  undoLabel: (name: string) => `Undo removing ${name}`,
  removeFailed: (name: string, reason: string) => `${name} could not be removed: ${reason}`,
  orderNotSaved: (reason: string) => `The new order could not be saved: ${reason}`,
  dismiss: 'Dismiss',

  // Dragging, spoken by the live region
  pickedUp: (name: string, position: number, count: number) =>
    `Picked up ${name}. It is at position ${position} of ${count}.`,
  movedTo: (name: string, position: number, count: number) =>
    `${name} was moved to position ${position} of ${count}.`,
  offList: (name: string) => `${name} is no longer over the list.`,
  droppedAt: (name: string, position: number, count: number) =>
    `${name} was dropped at position ${position} of ${count}.`,
  dropped: (name: string) => `${name} was dropped.`,
  dragCancelled: (name: string, position: number, count: number) =>
    `Moving was cancelled. ${name} stays at position ${position} of ${count}.`,
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
  coverRemove: 'Remove the cover',
  coverFailed: (reason: string) => `The cover could not be used: ${reason}`,

  // The sound options (data-sound="on", or more than one format)
  soundToggle: 'Sound options',
  soundSet: (n: number) => `${n} on`,
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
    `${what === 'gap' ? 'The silence between files' : 'The crossfade'} must be a number of seconds above 0 and at most ${max}.`,
  trimSilence: 'Trim silence',
  trimSilenceHelp: 'Cuts the dead air at the start and the end of each file.',
  gapless: 'Gapless',
  gaplessHelp: 'Removes the tiny pauses encoders add, so an album plays straight through.',

  // The progress view
  progressGroup: 'Merging your files',
  progressFailedGroup: 'The merge did not finish',
  progressBar: 'Merge progress',
  percent: (p: number) => `${p}%`,
  cancel: 'Cancel merge',
  cancelling: 'Cancelling…',
  reload: 'Reload',
  mergeFailed: 'The merge failed.',
  mergeCancelled: 'The merge was cancelled.',
  connectionLost: 'Lost the connection to the server; waiting for it to come back…',
  expired: 'This page has expired; reload to start again',

  // The host page's merged results
  merged: (format: string) => `merged ${format.toUpperCase()}`,
  mergedOf: (what: string, first: string, more: number) =>
    `${what} of ${first}${more > 0 ? ` and ${more} more` : ''}`,
  mergedAt: (what: string, when: string) => `${what}, ${when}`,
  playResult: (name: string) => `Play ${name}`,
  downloadResult: (name: string) => `Download ${name}`,
  deleteResult: 'Delete',
  deleteResultLabel: (name: string) => `Delete ${name}`,
  deletingResult: 'Deleting…',
  deleteResultFailed: (reason: string) => `Could not delete this file: ${reason}`,
  noResults: 'No merged files yet.',
} as const;
