// Español.
import type { Locale } from './en.js';
import { formatsFor } from './format.js';

const f = formatsFor('es');
const pos = (position: number, count: number) => `posición ${f.number(position)} de ${f.number(count)}`;

const es: Locale = {
  loading: 'Cargando tus archivos…',
  empty: 'Todavía no hay nada que unir. Sube algunos archivos de audio y aparecerán aquí.',
  loadFailed: (reason) =>
    `No se pudieron cargar tus archivos: ${reason}. Recarga la página para volver a intentarlo.`,
  hint: 'Arrastra una fila para moverla, o pulsa Espacio sobre ella, luego ↑ ↓ Inicio Fin, y Espacio para soltarla.',
  uploading: 'Subiendo: los archivos nuevos se añaden al final de la lista.',
  rowLabel: (name, position, count) => `${name}, ${pos(position, count)}`,
  rowRole: 'fila que se puede mover',
  position: (n) => f.number(n),
  duration: (seconds) => f.duration(seconds),
  play: (name) => `Reproducir ${name}`,
  remove: (name) => `Quitar ${name}`,
  removed: (name) => `Se quitó ${name}.`,
  undo: 'Deshacer',
  undoLabel: (name) => `Deshacer la eliminación de ${name}`,
  removeFailed: (name, reason) => `No se pudo quitar ${name}: ${reason}`,
  orderNotSaved: (reason) => `No se pudo guardar el nuevo orden: ${reason}`,
  dismiss: 'Cerrar',

  waveform: (name) => `Forma de onda de ${name}`,
  trimStart: (name) => `Inicio de la parte que se conserva de ${name}`,
  trimEnd: (name) => `Final de la parte que se conserva de ${name}`,
  timeText: (minutes, seconds) =>
    (minutes > 0 ? f.plural(minutes, { one: '{n} minuto ', other: '{n} minutos ' }) : '') +
    f.plural(seconds, { one: '{n} segundo', other: '{n} segundos' }),
  keptLabel: (length, whole) => `se conservan ${length} de ${whole}`,
  resetTrimLabel: (name) => `Conservar ${name} completo`,
  spanNotSaved: (name, reason) => `No se pudo guardar el recorte de ${name}: ${reason}`,

  chapterTitle: 'Capítulo',
  chapterTitleLabel: (name) => `Título del capítulo de ${name}`,
  chapterTitleNotSaved: (reason) => `Este título de capítulo no se guardó: ${reason}.`,
  keepsOwnChapters: (n) =>
    f.plural(n, { one: 'Conserva su propio capítulo', other: 'Conserva sus {n} capítulos' }),
  keepsOwnChaptersHint:
    'Este archivo trae sus propios capítulos: la unión los conserva, con sus títulos, desde donde empieza el archivo.',

  pickedUp: (name, position, count) => `Has tomado ${name}. Está en la ${pos(position, count)}.`,
  movedTo: (name, position, count) => `${name} pasó a la ${pos(position, count)}.`,
  offList: (name) => `${name} ya no está sobre la lista.`,
  droppedAt: (name, position, count) => `${name} se soltó en la ${pos(position, count)}.`,
  dropped: (name) => `${name} se soltó.`,
  dragCancelled: (name, position, count) =>
    `Movimiento cancelado. ${name} sigue en la ${pos(position, count)}.`,
  someFile: 'El archivo',
  dragInstructions:
    'Para mover este archivo, pulsa Espacio. Usa las flechas arriba y abajo para cambiar su posición, Inicio o Fin ' +
    'para llevarlo al principio o al final, Espacio otra vez para soltarlo, o Escape para cancelar.',

  format: 'Formato',
  chapters: 'Capítulos',
  formatLabels: {
    mp3: 'MP3',
    m4b: 'Audiolibro M4B',
    m4a: 'M4A (AAC)',
    opus: 'Opus',
    ogg: 'Ogg Vorbis',
    flac: 'FLAC',
    wav: 'WAV',
  },
  formatNames: { mp3: 'MP3', m4b: 'M4B', m4a: 'M4A', opus: 'Opus', ogg: 'Ogg', flac: 'FLAC', wav: 'WAV' },
  makesFormat: (format) => `Crea un ${format}`,
  noChapters: (format) => `Los archivos ${format} no llevan capítulos.`,
  quality: 'Calidad',
  qualityLabels: {
    auto: 'Como los archivos',
    speechSmall: 'Voz, ligero: 64 kb/s mono',
    speech: 'Voz: 96 kb/s mono',
    standard: 'Estándar: 128 kb/s',
    high: 'Alta: 192 kb/s',
  },

  detailsToggle: 'Datos del libro',
  detailLabels: {
    title: 'Título',
    artist: 'Autor',
    narrator: 'Narrador',
    album: 'Álbum',
    genre: 'Género',
    year: 'Año',
    description: 'Descripción',
  },
  cover: 'Portada',
  coverDrop: 'Suelta aquí un JPEG o PNG, o elige uno',
  coverChoose: 'Elegir una imagen',
  coverRemove: 'Quitar la portada',
  coverFailed: (reason) => `No se pudo usar la portada: ${reason}`,

  soundToggle: 'Opciones de sonido',
  soundSet: (n) => f.plural(n, { one: '{n} activa', other: '{n} activas' }),
  loudness: 'Igualar el volumen',
  loudnessHelp: 'Deja todos los archivos con el mismo volumen, para que nadie tenga que tocar el mando.',
  loudnessTarget: 'Volumen de referencia',
  targetStereo: '-16 LUFS (estéreo)',
  targetMono: '-19 LUFS (voz en mono)',
  between: 'Entre archivos',
  betweenHelp: 'Nada, una pausa en silencio, o el final de cada archivo fundiéndose con el siguiente.',
  betweenNone: 'Nada',
  betweenGap: 'Silencio',
  betweenCrossfade: 'Fundido',
  seconds: 'Segundos',
  badLength: (what, max) =>
    `${what === 'gap' ? 'El silencio entre archivos' : 'El fundido'} debe durar más de 0 y como máximo ${f.number(max)} segundos.`,
  trimSilence: 'Recortar silencios',
  trimSilenceHelp: 'Quita el silencio del principio y del final de cada archivo.',
  gapless: 'Sin pausas',
  gaplessHelp:
    'Elimina las pequeñas pausas que añaden los codificadores, para que un álbum suene de corrido.',

  progressGroup: 'Uniendo tus archivos',
  progressFailedGroup: 'La unión no terminó',
  progressBar: 'Progreso',
  percent: (p) => f.percent(p),
  stages: {
    waiting: 'En espera',
    reading: 'Leyendo los archivos',
    encoding: 'Codificando',
    writing: 'Escribiendo el archivo',
    storing: 'Guardando el resultado',
  },
  fileOf: (file, files) => `archivo ${f.number(file)} de ${f.number(files)}`,
  timeLeft: (seconds) => `tiempo restante: aprox. ${f.roughDuration(seconds)}`,
  waitingToStart: 'Esperando para empezar',
  waitingAhead: (ahead) =>
    f.plural(ahead, {
      one: 'En espera: hay {n} unión antes que la tuya',
      other: 'En espera: hay {n} uniones antes que la tuya',
    }),
  cancel: 'Cancelar la unión',
  cancelling: 'Cancelando…',
  reload: 'Recargar',
  mergeFailed: 'La unión ha fallado.',
  mergeCancelled: 'La unión se ha cancelado.',
  connectionLost: 'Se perdió la conexión con el servidor; esperando a que vuelva…',
  expired: 'Esta página ha caducado; recárgala para empezar de nuevo.',

  serverMessages: {
    badRequest: 'La solicitud no es válida.',
    notFound: 'No se encontró: puede que ya se haya eliminado.',
    noMerge: 'No tienes ninguna unión en espera ni en curso.',
    foreignItem: 'Un archivo de la lista no pertenece a esta página.',
    itemInMerge: 'Ese archivo forma parte de una unión en curso; quítalo cuando haya terminado.',
    endNotRecorded:
      'Tu unión ha terminado, pero el servidor no pudo registrar cómo; recarga la página en un momento para verlo.',
    tooLarge: 'El archivo es demasiado grande.',
    tooManyFiles: 'Hay demasiados archivos en esta lista.',
    noItems: 'No hay nada que unir.',
    rateLimited: 'Demasiadas solicitudes; espera un momento y vuelve a intentarlo.',
    unavailable: 'El servidor se está apagando; inténtalo de nuevo en un rato.',
    internal: 'Algo ha fallado en el servidor.',
    mergeFailed: 'La unión ha fallado en el servidor; vuelve a intentarlo.',
    mergeStopped:
      'El servidor se está apagando y ha detenido esta unión; vuelve a pulsar el botón en un rato.',
    interrupted: 'El servidor se reinició mientras se hacía la unión; vuelve a pulsar el botón.',
    itemGone: 'No se pudo unir: un archivo de la lista se eliminó antes de empezar.',
    empty: 'El archivo está vacío.',
    unreadable: 'No se puede leer el archivo.',
    'not-audio': 'El archivo no contiene audio utilizable.',
    'bad-rate': 'El archivo declara una frecuencia de muestreo que ningún audio real tiene.',
    'bad-mp3': 'El archivo MP3 está dañado.',
    'free-format': 'El archivo MP3 usa una tasa de bits libre (free format) y no se puede unir.',
    'reencode-failed': 'No se pudo recodificar el archivo.',
    'output-unwritable': 'El servidor no pudo escribir el archivo unido.',
    'disk-full': 'El disco del servidor está lleno; inténtalo más tarde.',
    'tool-missing': 'El servidor no puede ejecutar sus herramientas de audio.',
    cancelled: 'La unión se ha cancelado.',
    csrf: 'Esta página ha caducado; recárgala para seguir.',
    noSession: 'Esta página ha caducado; recárgala para seguir.',
    foreignFile: 'Ese archivo no pertenece a esta página.',
    foreignChannel: 'El progreso de esa unión no pertenece a esta página.',
    bodyTooLarge: 'La solicitud es demasiado grande.',
    unsupportedMediaType: 'El servidor no pudo leer la solicitud.',
    rangeNotSatisfiable: 'Esa parte del archivo no existe.',
    tusRefused: 'El servidor rechazó la subida reanudable.',
    notReady: 'El servidor aún no está listo; inténtalo de nuevo en un momento.',
    'merge-too-long':
      'La unión es demasiado larga: juntos, los archivos duran más de lo que este servidor une de una vez. Quita algunos y vuelve a intentarlo.',
    'too-many-merges':
      'Ya tienes tantas uniones en espera o en curso como permite este servidor; espera a que termine alguna.',
    'format-change': 'El archivo MP3 cambia de formato a mitad y no se puede unir.',
    'bad-mp4': 'El archivo MP4 está dañado.',
    'measure-failed': 'No se pudo medir el volumen del archivo.',
    'not-image': 'La portada no es una imagen JPEG ni PNG.',
    'same-as-output': 'Un archivo es también el de salida.',
    badCover: 'La portada debe ser una imagen JPEG o PNG de 10 MB y 4096 × 4096 píxeles como máximo.',
    choicesTooLarge: 'Tus opciones ocupan demasiado para guardarlas (más de 16 KB).',
    'chapter-past-end': 'Un capítulo empieza después del final del archivo unido.',
    'too-many-chapters':
      'Hay más capítulos de los que admite el formato (255 en MP3 y M4B, 999 en los demás).',
    badSpan: 'La parte que se conserva no cabe en el archivo.',
    badChapterTitle:
      'Un título de capítulo es una sola línea de 500 caracteres como máximo, sin caracteres de control ni de dirección del texto.',
    'bad-trim': 'La parte que se conserva de un archivo no cabe en él.',
  },

  /** A merge's failure about one input, naming it. */
  inputFailures: {
    empty: (file) => `No se pudo unir: ${file} está vacío.`,
    unreadable: (file) => `No se pudo unir: ${file} no se puede leer.`,
    'not-audio': (file) => `No se pudo unir: ${file} no contiene audio utilizable.`,
    'bad-rate': (file) =>
      `No se pudo unir: ${file} declara una frecuencia de muestreo que ningún audio real tiene.`,
    'bad-mp3': (file) => `No se pudo unir: ${file} es un archivo MP3 dañado.`,
    'free-format': (file) =>
      `No se pudo unir: ${file} usa una tasa de bits MP3 libre (free format) y no se puede unir.`,
    'format-change': (file) => `No se pudo unir: ${file} cambia de formato MP3 a mitad y no se puede unir.`,
    'bad-mp4': (file) => `No se pudo unir: ${file} es un archivo MP4 dañado.`,
    'reencode-failed': (file) => `No se pudo unir: ${file} no se pudo recodificar.`,
    'measure-failed': (file) => `No se pudo unir: No se pudo medir el volumen de ${file}.`,
    'not-image': (file) => `No se pudo unir: ${file} no es una imagen JPEG ni PNG.`,
    'same-as-output': (file) => `No se pudo unir: ${file} es también el archivo de salida.`,
  },

  chooseFiles: 'Elegir archivos de audio',
  orDropThem: 'o suéltalos aquí. Puedes subir varios a la vez.',
  uploadWaiting: 'En espera',
  uploadChecking: 'Comprobando…',
  uploadSent: 'Enviado; espera a los archivos anteriores',
  uploaded: 'Subido',
  uploadRefused: 'Rechazado',
  fileSize: (bytes) => f.size(bytes),
  overPageLimit: (name, mb) => `${name} supera el límite de ${f.number(mb)} MB.`,
  uploadUnreached: (name) => `${name}: la subida no llegó al servidor (error de red).`,
  uploadNotStored: (name) => `${name} no se guardó.`,
  uploadNoItem: (name) =>
    `${name} se envió completo, pero el servidor no indicó que lo guardara. Añade el archivo de nuevo.`,
  uploadTooLarge: (name) => `${name} es demasiado grande para el servidor.`,
  uploadHttpRefused: (name, status) => `${name}: el servidor rechazó la subida (HTTP ${status}).`,
  batchSummary: (stored, tried) =>
    (stored === tried
      ? f.plural(stored, { one: '{n} archivo subido.', other: '{n} archivos subidos.' })
      : `${f.number(stored)} de ${f.number(tried)} archivos subidos.`) +
    (stored === 1
      ? ' Está al final de la lista para ordenarlo.'
      : ' Están al final de la lista para ordenarlos.'),

  merged: (format) => `${format.toUpperCase()} unido`,
  mergedOf: (what, first, more) =>
    `${what} de ${first}${more > 0 ? f.plural(more, { one: ' y {n} más', other: ' y {n} más' }) : ''}`,
  mergedAt: (what, when) => `${what}, ${when}`,
  dateTime: (at) => f.dateTime(at),
  playResult: (name) => `Reproducir ${name}`,
  downloadResult: (name) => `Descargar ${name}`,
  deleteResult: 'Eliminar',
  deleteResultLabel: (name) => `Eliminar ${name}`,
  deletingResult: 'Eliminando…',
  deleteResultFailed: (reason) => `No se pudo eliminar este archivo: ${reason}`,
  noResults: 'Todavía no hay archivos unidos.',
  resultCover: (title) => `Portada de ${title}`,
  bookResult: (title, what) => `${what}: ${title}`,
};

export default es;
