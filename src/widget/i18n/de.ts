// Deutsch.
import type { Locale } from './en.js';
import { formatsFor } from './format.js';

const f = formatsFor('de');
const pos = (position: number, count: number) => `Platz ${f.number(position)} von ${f.number(count)}`;

const de: Locale = {
  loading: 'Deine Dateien werden geladen …',
  empty: 'Noch nichts zum Zusammenfügen. Lade Audiodateien hoch, dann erscheinen sie hier.',
  loadFailed: (reason) =>
    `Deine Dateien konnten nicht geladen werden: ${reason}. Lade die Seite neu, um es noch einmal zu versuchen.`,
  hint: 'Zieh eine Zeile an ihren Platz – oder drück auf ihr die Leertaste, dann ↑ ↓ Pos1 Ende und zum Ablegen wieder die Leertaste.',
  uploading: 'Wird hochgeladen: Neue Dateien kommen ans Ende der Liste.',
  rowLabel: (name, position, count) => `${name}, ${pos(position, count)}`,
  rowRole: 'verschiebbare Zeile',
  position: (n) => f.number(n),
  duration: (seconds) => f.duration(seconds),
  play: (name) => `${name} abspielen`,
  remove: (name) => `${name} entfernen`,
  removed: (name) => `${name} entfernt.`,
  undo: 'Rückgängig',
  undoLabel: (name) => `Entfernen von ${name} rückgängig machen`,
  removeFailed: (name, reason) => `${name} konnte nicht entfernt werden: ${reason}`,
  orderNotSaved: (reason) => `Die neue Reihenfolge konnte nicht gespeichert werden: ${reason}`,
  dismiss: 'Schließen',

  waveform: (name) => `Wellenform von ${name}`,
  trimStart: (name) => `Anfang des behaltenen Teils von ${name}`,
  trimEnd: (name) => `Ende des behaltenen Teils von ${name}`,
  timeText: (minutes, seconds) =>
    (minutes > 0 ? f.plural(minutes, { one: '{n} Minute ', other: '{n} Minuten ' }) : '') +
    f.plural(seconds, { one: '{n} Sekunde', other: '{n} Sekunden' }),
  keptLabel: (length, whole) => `${length} von ${whole} behalten`,
  resetTrimLabel: (name) => `${name} wieder ganz verwenden`,
  spanNotSaved: (name, reason) => `Der Schnitt von ${name} konnte nicht gespeichert werden: ${reason}`,

  chapterTitle: 'Kapitel',
  chapterTitleLabel: (name) => `Kapiteltitel von ${name}`,
  chapterTitleNotSaved: (reason) => `Dieser Kapiteltitel wurde nicht gespeichert: ${reason}.`,
  keepsOwnChapters: (n) =>
    f.plural(n, { one: 'Behält ihr eigenes Kapitel', other: 'Behält ihre {n} Kapitel' }),
  keepsOwnChaptersHint:
    'Diese Datei hat eigene Kapitel: Beim Zusammenfügen bleiben sie mit ihren Titeln erhalten, ab der Stelle, an der die Datei beginnt.',

  pickedUp: (name, position, count) => `${name} aufgenommen. Die Datei steht auf ${pos(position, count)}.`,
  movedTo: (name, position, count) => `${name} ist jetzt auf ${pos(position, count)}.`,
  offList: (name) => `${name} ist nicht mehr über der Liste.`,
  droppedAt: (name, position, count) => `${name} wurde auf ${pos(position, count)} abgelegt.`,
  dropped: (name) => `${name} wurde abgelegt.`,
  dragCancelled: (name, position, count) =>
    `Verschieben abgebrochen. ${name} bleibt auf ${pos(position, count)}.`,
  someFile: 'Die Datei',
  dragInstructions:
    'Um diese Datei zu verschieben, drück die Leertaste. Mit den Pfeiltasten nach oben und unten änderst du ihren Platz, ' +
    'mit Pos1 oder Ende bringst du sie ganz nach oben oder unten; mit der Leertaste legst du sie ab, mit Escape brichst du ab.',

  format: 'Format',
  chapters: 'Kapitel',
  formatLabels: {
    mp3: 'MP3',
    m4b: 'M4B-Hörbuch',
    m4a: 'M4A (AAC)',
    opus: 'Opus',
    ogg: 'Ogg Vorbis',
    flac: 'FLAC',
    wav: 'WAV',
  },
  formatNames: { mp3: 'MP3', m4b: 'M4B', m4a: 'M4A', opus: 'Opus', ogg: 'Ogg', flac: 'FLAC', wav: 'WAV' },
  makesFormat: (format) => `Erstellt ${format}`,
  noChapters: (format) => `${format}-Dateien enthalten keine Kapitel.`,
  quality: 'Qualität',
  qualityLabels: {
    auto: 'Wie die Dateien',
    speechSmall: 'Sprache, klein: 64 kbit/s mono',
    speech: 'Sprache: 96 kbit/s mono',
    standard: 'Standard: 128 kbit/s',
    high: 'Hoch: 192 kbit/s',
  },

  detailsToggle: 'Angaben zum Buch',
  detailLabels: {
    title: 'Titel',
    artist: 'Autor',
    narrator: 'Sprecher',
    album: 'Album',
    genre: 'Genre',
    year: 'Jahr',
    description: 'Beschreibung',
  },
  cover: 'Cover',
  coverDrop: 'Zieh ein JPEG oder PNG hierher oder wähle eines aus',
  coverChoose: 'Bild auswählen',
  coverRemove: 'Cover entfernen',
  coverFailed: (reason) => `Das Cover konnte nicht verwendet werden: ${reason}`,

  soundToggle: 'Klangoptionen',
  soundSet: (n) => `${f.number(n)} aktiv`,
  loudness: 'Lautstärke angleichen',
  loudnessHelp: 'Bringt alle Dateien auf dieselbe Lautheit – niemand muss mehr am Lautstärkeregler drehen.',
  loudnessTarget: 'Ziellautheit',
  targetStereo: '-16 LUFS (Stereo)',
  targetMono: '-19 LUFS (Sprache, mono)',
  between: 'Zwischen den Dateien',
  betweenHelp: 'Nichts, eine Pause oder ein Übergang, bei dem jede Datei in die nächste überblendet.',
  betweenNone: 'Nichts',
  betweenGap: 'Pause',
  betweenCrossfade: 'Überblenden',
  seconds: 'Sekunden',
  badLength: (what, max) =>
    `${what === 'gap' ? 'Die Pause zwischen den Dateien' : 'Die Überblendung'} muss länger als 0 und höchstens ${f.number(max)} Sekunden lang sein.`,
  trimSilence: 'Stille kürzen',
  trimSilenceHelp: 'Schneidet die stillen Stellen am Anfang und Ende jeder Datei weg.',
  gapless: 'Lückenlos',
  gaplessHelp:
    'Entfernt die winzigen Pausen, die Encoder einfügen – ein Album läuft so ohne Unterbrechung durch.',

  progressGroup: 'Deine Dateien werden zusammengefügt',
  progressFailedGroup: 'Das Zusammenfügen wurde nicht abgeschlossen',
  progressBar: 'Fortschritt',
  percent: (p) => f.percent(p),
  stages: {
    waiting: 'Wartet',
    reading: 'Dateien werden gelesen',
    encoding: 'Kodierung',
    writing: 'Datei wird geschrieben',
    storing: 'Ergebnis wird gespeichert',
  },
  fileOf: (file, files) => `Datei ${f.number(file)} von ${f.number(files)}`,
  timeLeft: (seconds) => `noch etwa ${f.roughDuration(seconds)}`,
  waitingToStart: 'Wartet auf den Start',
  waitingAhead: (ahead) =>
    f.plural(ahead, {
      one: 'Wartet: {n} Auftrag ist vor deinem',
      other: 'Wartet: {n} Aufträge sind vor deinem',
    }),
  cancel: 'Abbrechen',
  cancelling: 'Wird abgebrochen …',
  reload: 'Neu laden',
  mergeFailed: 'Das Zusammenfügen ist fehlgeschlagen.',
  mergeCancelled: 'Das Zusammenfügen wurde abgebrochen.',
  connectionLost: 'Die Verbindung zum Server ist unterbrochen; warte, bis sie wieder steht …',
  expired: 'Diese Seite ist abgelaufen. Lade sie neu, um von vorn zu beginnen.',

  serverMessages: {
    badRequest: 'Die Anfrage ist ungültig.',
    notFound: 'Nicht gefunden – vielleicht wurde es schon entfernt.',
    noMerge: 'Es wartet oder läuft gerade kein Auftrag von dir.',
    foreignItem: 'Eine Datei in der Liste gehört nicht zu dieser Seite.',
    itemInMerge: 'Diese Datei wird gerade zusammengefügt. Entferne sie, wenn der Vorgang beendet ist.',
    endNotRecorded:
      'Dein Zusammenfügen ist beendet, aber der Server konnte den Ausgang nicht festhalten; lade die Seite gleich neu, um ihn zu sehen.',
    tooLarge: 'Die Datei ist zu groß.',
    tooManyFiles: 'In dieser Liste sind zu viele Dateien.',
    noItems: 'Es gibt nichts zum Zusammenfügen.',
    rateLimited: 'Zu viele Anfragen. Warte einen Moment und versuch es dann noch einmal.',
    unavailable: 'Der Server fährt gerade herunter. Versuch es gleich noch einmal.',
    internal: 'Auf dem Server ist etwas schiefgegangen.',
    mergeFailed: 'Das Zusammenfügen ist auf dem Server fehlgeschlagen. Bitte versuch es noch einmal.',
    mergeStopped:
      'Der Server fährt herunter und hat das Zusammenfügen gestoppt. Starte es gleich noch einmal.',
    interrupted: 'Der Server wurde während des Zusammenfügens neu gestartet. Bitte starte es noch einmal.',
    itemGone: 'Zusammenfügen nicht möglich: Eine Datei der Liste wurde vor dem Start gelöscht.',
    empty: 'Die Datei ist leer.',
    unreadable: 'Die Datei lässt sich nicht lesen.',
    'not-audio': 'Die Datei enthält kein verwendbares Audio.',
    'bad-rate': 'Die Datei gibt eine Abtastrate an, die echtes Audio nie hat.',
    'bad-mp3': 'Die MP3-Datei ist beschädigt.',
    'free-format': 'Die MP3-Datei hat eine freie Bitrate und lässt sich nicht anfügen.',
    'reencode-failed': 'Die Datei konnte nicht neu kodiert werden.',
    'output-unwritable': 'Der Server konnte die fertige Datei nicht schreiben.',
    'disk-full': 'Der Speicher des Servers ist voll. Versuch es später noch einmal.',
    'tool-missing': 'Der Server kann seine Audiowerkzeuge nicht ausführen.',
    cancelled: 'Das Zusammenfügen wurde abgebrochen.',
    csrf: 'Diese Seite ist abgelaufen. Lade sie neu, um weiterzumachen.',
    noSession: 'Diese Seite ist abgelaufen. Lade sie neu, um weiterzumachen.',
    foreignFile: 'Diese Datei gehört nicht zu dieser Seite.',
    foreignChannel: 'Der Fortschritt dieses Auftrags gehört nicht zu dieser Seite.',
    bodyTooLarge: 'Die Anfrage ist zu groß.',
    unsupportedMediaType: 'Der Server konnte die Anfrage nicht lesen.',
    rangeNotSatisfiable: 'Diesen Teil der Datei gibt es nicht.',
    tusRefused: 'Der Server hat den fortsetzbaren Upload abgelehnt.',
    notReady: 'Der Server ist noch nicht bereit. Versuch es gleich noch einmal.',
    'merge-too-long':
      'Das wird zu lang: Zusammen dauern die Dateien länger, als dieser Server auf einmal zusammenfügt. Nimm ein paar heraus und versuch es noch einmal.',
    'too-many-merges':
      'Du hast schon so viele Aufträge in der Warteschlange oder in Arbeit, wie dieser Server zulässt. Warte, bis einer fertig ist.',
    'format-change': 'Die MP3-Datei wechselt mittendrin ihr Format und lässt sich nicht anfügen.',
    'bad-mp4': 'Die MP4-Datei ist beschädigt.',
    'measure-failed': 'Die Lautheit der Datei ließ sich nicht messen.',
    'not-image': 'Das Cover ist kein JPEG- oder PNG-Bild.',
    'same-as-output': 'Eine Datei ist zugleich die Ausgabedatei.',
    badCover: 'Das Cover muss ein JPEG- oder PNG-Bild von höchstens 10 MB und 4096 × 4096 Pixeln sein.',
    choicesTooLarge: 'Deine Auswahl ist zu groß zum Speichern (mehr als 16 KB).',
    'chapter-past-end': 'Ein Kapitel beginnt nach dem Ende der zusammengefügten Datei.',
    'too-many-chapters':
      'Es sind mehr Kapitel, als das Format fassen kann (255 in MP3 und M4B, 999 in den anderen).',
    badSpan: 'Der behaltene Teil passt nicht zur Datei.',
    badChapterTitle:
      'Ein Kapiteltitel ist eine Zeile mit höchstens 500 Zeichen, ohne Steuer- und Textrichtungszeichen.',
    'bad-trim': 'Der behaltene Teil einer Datei passt nicht zur Datei.',
  },

  /** A merge's failure about one input, naming it. */
  inputFailures: {
    empty: (file) => `Zusammenfügen nicht möglich: ${file} ist leer.`,
    unreadable: (file) => `Zusammenfügen nicht möglich: ${file} lässt sich nicht lesen.`,
    'not-audio': (file) => `Zusammenfügen nicht möglich: ${file} enthält kein verwendbares Audio.`,
    'bad-rate': (file) =>
      `Zusammenfügen nicht möglich: ${file} gibt eine Abtastrate an, die echtes Audio nie hat.`,
    'bad-mp3': (file) => `Zusammenfügen nicht möglich: ${file} ist eine beschädigte MP3-Datei.`,
    'free-format': (file) =>
      `Zusammenfügen nicht möglich: ${file} hat eine freie MP3-Bitrate und lässt sich nicht anfügen.`,
    'format-change': (file) =>
      `Zusammenfügen nicht möglich: ${file} wechselt mittendrin das MP3-Format und lässt sich nicht anfügen.`,
    'bad-mp4': (file) => `Zusammenfügen nicht möglich: ${file} ist eine beschädigte MP4-Datei.`,
    'reencode-failed': (file) => `Zusammenfügen nicht möglich: ${file} ließ sich nicht neu kodieren.`,
    'measure-failed': (file) =>
      `Zusammenfügen nicht möglich: Die Lautheit von ${file} ließ sich nicht messen.`,
    'not-image': (file) => `Zusammenfügen nicht möglich: ${file} ist kein JPEG- oder PNG-Bild.`,
    'same-as-output': (file) => `Zusammenfügen nicht möglich: ${file} ist zugleich die Ausgabedatei.`,
  },

  chooseFiles: 'Audiodateien auswählen',
  orDropThem: 'oder hier ablegen – gern mehrere auf einmal.',
  uploadWaiting: 'Wartet',
  uploadChecking: 'Wird geprüft …',
  uploadSent: 'Gesendet; wartet auf die Dateien davor',
  uploaded: 'Hochgeladen',
  uploadRefused: 'Abgelehnt',
  fileSize: (bytes) => f.size(bytes),
  overPageLimit: (name, mb) => `${name} ist größer als die erlaubten ${f.number(mb)} MB.`,
  uploadUnreached: (name) => `${name}: Der Upload hat den Server nicht erreicht (Netzwerkfehler).`,
  uploadNotStored: (name) => `${name} wurde nicht gespeichert.`,
  uploadNoItem: (name) =>
    `${name} wurde vollständig gesendet, aber der Server hat nicht gemeldet, dass er die Datei gespeichert hat. Füge die Datei erneut hinzu.`,
  uploadTooLarge: (name) => `${name} ist zu groß für den Server.`,
  uploadHttpRefused: (name, status) => `${name}: Der Server hat den Upload abgelehnt (HTTP ${status}).`,
  batchSummary: (stored, tried) =>
    (stored === tried
      ? f.plural(stored, { one: '{n} Datei hochgeladen.', other: '{n} Dateien hochgeladen.' })
      : `${f.number(stored)} von ${f.number(tried)} Dateien hochgeladen.`) +
    (stored === 1 ? ' Sie steht am Ende der Liste.' : ' Sie stehen am Ende der Liste.'),

  merged: (format) => `zusammengefügte ${format.toUpperCase()}-Datei`,
  mergedOf: (what, first, more) =>
    `${what} aus ${first}${more > 0 ? f.plural(more, { one: ' und {n} weiteren', other: ' und {n} weiteren' }) : ''}`,
  mergedAt: (what, when) => `${what}, ${when}`,
  dateTime: (at) => f.dateTime(at),
  playResult: (name) => `${name} abspielen`,
  downloadResult: (name) => `${name} herunterladen`,
  deleteResult: 'Löschen',
  deleteResultLabel: (name) => `${name} löschen`,
  deletingResult: 'Wird gelöscht …',
  deleteResultFailed: (reason) => `Diese Datei konnte nicht gelöscht werden: ${reason}`,
  noResults: 'Noch keine zusammengefügten Dateien.',
  resultCover: (title) => `Cover von ${title}`,
  bookResult: (title, what) => `${what}: ${title}`,
};

export default de;
