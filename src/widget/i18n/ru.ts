// Русский.
import type { Locale } from './en.js';
import { formatsFor } from './format.js';

const f = formatsFor('ru');
const pos = (position: number, count: number) => `${f.number(position)}-е место из ${f.number(count)}`;
const files = (n: number) =>
  f.plural(n, { one: '{n} файл', few: '{n} файла', many: '{n} файлов', other: '{n} файла' });

/** After "из": the genitive. */
const filesOf = (n: number) =>
  f.plural(n, { one: '{n} файла', few: '{n} файлов', many: '{n} файлов', other: '{n} файла' });

const ru: Locale = {
  loading: 'Загружаем ваши файлы…',
  empty: 'Пока нечего объединять. Загрузите аудиофайлы — они появятся здесь.',
  loadFailed: (reason) =>
    `Не удалось загрузить ваши файлы: ${reason}. Обновите страницу и попробуйте ещё раз.`,
  hint: 'Перетащите строку на нужное место или нажмите на ней Пробел, затем ↑ ↓ Home End и снова Пробел, чтобы отпустить.',
  uploading: 'Идёт загрузка: новые файлы встают в конец списка.',
  rowLabel: (name, position, count) => `${name}, ${pos(position, count)}`,
  rowRole: 'перемещаемая строка',
  position: (n) => f.number(n),
  duration: (seconds) => f.duration(seconds),
  play: (name) => `Воспроизвести ${name}`,
  remove: (name) => `Убрать ${name}`,
  removed: (name) => `${name} убран из списка.`,
  undo: 'Вернуть',
  undoLabel: (name) => `Вернуть ${name}`,
  removeFailed: (name, reason) => `Не удалось убрать ${name}: ${reason}`,
  orderNotSaved: (reason) => `Не удалось сохранить новый порядок: ${reason}`,
  dismiss: 'Закрыть',

  waveform: (name) => `Осциллограмма файла ${name}`,
  trimStart: (name) => `Начало сохраняемой части файла ${name}`,
  trimEnd: (name) => `Конец сохраняемой части файла ${name}`,
  timeText: (minutes, seconds) =>
    (minutes > 0
      ? f.plural(minutes, {
          one: '{n} минута ',
          few: '{n} минуты ',
          many: '{n} минут ',
          other: '{n} минуты ',
        })
      : '') +
    f.plural(seconds, { one: '{n} секунда', few: '{n} секунды', many: '{n} секунд', other: '{n} секунды' }),
  keptLabel: (length, whole) => `оставлено ${length} из ${whole}`,
  resetTrimLabel: (name) => `Оставить файл ${name} целиком`,
  spanNotSaved: (name, reason) => `Не удалось сохранить обрезку файла ${name}: ${reason}`,

  chapterTitle: 'Глава',
  chapterTitleLabel: (name) => `Глава: название для файла ${name}`,
  chapterTitleNotSaved: (reason) => `Название главы не сохранено: ${reason}.`,
  keepsOwnChapters: (n) =>
    f.plural(n, {
      one: 'Сохраняет свою {n} главу',
      few: 'Сохраняет свои {n} главы',
      many: 'Сохраняет свои {n} глав',
      other: 'Сохраняет свои {n} главы',
    }),
  keepsOwnChaptersHint:
    'В этом файле есть свои главы: при объединении они сохраняются со своими названиями, начиная с места, где начинается файл.',

  pickedUp: (name, position, count) => `${name} взят. Сейчас это ${pos(position, count)}.`,
  movedTo: (name, position, count) => `${name} перемещён: ${pos(position, count)}.`,
  offList: (name) => `${name} больше не над списком.`,
  droppedAt: (name, position, count) => `${name} отпущен: ${pos(position, count)}.`,
  dropped: (name) => `${name} отпущен.`,
  dragCancelled: (name, position, count) =>
    `Перемещение отменено. ${name} остаётся на месте: ${pos(position, count)}.`,
  someFile: 'Файл',
  dragInstructions:
    'Чтобы переместить этот файл, нажмите Пробел. Стрелками вверх и вниз меняйте его место, клавишами Home и End ' +
    'переносите в начало или в конец, снова нажмите Пробел, чтобы отпустить, или Escape, чтобы отменить.',

  format: 'Формат',
  chapters: 'Главы',
  formatLabels: {
    mp3: 'MP3',
    m4b: 'Аудиокнига M4B',
    m4a: 'M4A (AAC)',
    opus: 'Opus',
    ogg: 'Ogg Vorbis',
    flac: 'FLAC',
    wav: 'WAV',
  },
  formatNames: { mp3: 'MP3', m4b: 'M4B', m4a: 'M4A', opus: 'Opus', ogg: 'Ogg', flac: 'FLAC', wav: 'WAV' },
  makesFormat: (format) => `Будет ${format}`,
  noChapters: (format) => `Файлы ${format} не содержат глав.`,
  quality: 'Качество',
  qualityLabels: {
    auto: 'Как у файлов',
    speechSmall: 'Речь, компактно: 64 кбит/с, моно',
    speech: 'Речь: 96 кбит/с, моно',
    standard: 'Стандартное: 128 кбит/с',
    high: 'Высокое: 192 кбит/с',
  },

  detailsToggle: 'Сведения о книге',
  detailLabels: {
    title: 'Название',
    artist: 'Автор',
    narrator: 'Чтец',
    album: 'Альбом',
    genre: 'Жанр',
    year: 'Год',
    description: 'Описание',
  },
  cover: 'Обложка',
  coverDrop: 'Перетащите сюда JPEG или PNG или выберите файл',
  coverChoose: 'Выбрать изображение',
  coverRemove: 'Убрать обложку',
  coverFailed: (reason) => `Не удалось использовать обложку: ${reason}`,

  soundToggle: 'Настройки звука',
  soundSet: (n) =>
    f.plural(n, { one: 'включена {n}', few: 'включено {n}', many: 'включено {n}', other: 'включено {n}' }),
  loudness: 'Выровнять громкость',
  loudnessHelp: 'Приводит все файлы к одной громкости, чтобы не тянуться к регулятору.',
  loudnessTarget: 'Целевая громкость',
  targetStereo: '−16 LUFS (стерео)',
  targetMono: '−19 LUFS (речь, моно)',
  between: 'Между файлами',
  betweenHelp: 'Ничего, пауза тишины или плавный переход конца каждого файла в следующий.',
  betweenNone: 'Ничего',
  betweenGap: 'Тишина',
  betweenCrossfade: 'Плавный переход',
  seconds: 'Секунды',
  badLength: (what, max) =>
    `${what === 'gap' ? 'Пауза между файлами' : 'Плавный переход'} должен длиться больше 0 и не дольше ${f.number(max)} с.`,
  trimSilence: 'Обрезать тишину',
  trimSilenceHelp: 'Убирает тишину в начале и в конце каждого файла.',
  gapless: 'Без пауз',
  gaplessHelp: 'Убирает крошечные паузы, которые добавляют кодеки, чтобы альбом звучал без перерывов.',

  progressGroup: 'Объединяем ваши файлы',
  progressFailedGroup: 'Объединение не завершилось',
  progressBar: 'Ход объединения',
  percent: (p) => f.percent(p),
  stages: {
    waiting: 'Ожидание',
    reading: 'Чтение файлов',
    encoding: 'Кодирование',
    writing: 'Запись файла',
    storing: 'Сохранение результата',
  },
  fileOf: (file, files) => `файл ${f.number(file)} из ${f.number(files)}`,
  timeLeft: (seconds) => `осталось примерно ${f.roughDuration(seconds)}`,
  waitingToStart: 'Ожидает запуска',
  waitingAhead: (ahead) =>
    f.plural(ahead, {
      one: 'В очереди: перед вами {n} задание',
      few: 'В очереди: перед вами {n} задания',
      many: 'В очереди: перед вами {n} заданий',
      other: 'В очереди: перед вами {n} задания',
    }),
  cancel: 'Отменить объединение',
  cancelling: 'Отменяем…',
  reload: 'Обновить',
  mergeFailed: 'Объединить файлы не удалось.',
  mergeCancelled: 'Объединение отменено.',
  connectionLost: 'Связь с сервером потеряна; ждём, когда она восстановится…',
  expired: 'Срок действия страницы истёк; обновите её, чтобы начать заново.',

  serverMessages: {
    badRequest: 'Некорректный запрос.',
    notFound: 'Не найдено: возможно, уже удалено.',
    noMerge: 'У вас нет объединений в очереди или в работе.',
    foreignItem: 'Один из файлов списка не относится к этой странице.',
    itemInMerge: 'Этот файл участвует в идущем объединении; уберите его, когда оно закончится.',
    endNotRecorded:
      'Объединение завершилось, но сервер не смог записать его итог; обновите страницу через минуту, чтобы увидеть его.',
    tooLarge: 'Файл слишком большой.',
    tooManyFiles: 'В этом списке слишком много файлов.',
    noItems: 'Нечего объединять.',
    rateLimited: 'Слишком много запросов; подождите немного и попробуйте снова.',
    unavailable: 'Сервер выключается; попробуйте чуть позже.',
    internal: 'На сервере что-то пошло не так.',
    mergeFailed: 'Сервер не смог объединить файлы; попробуйте ещё раз.',
    mergeStopped: 'Сервер выключается и остановил объединение; чуть позже запустите его снова.',
    interrupted: 'Сервер перезапустился во время объединения; запустите его снова.',
    itemGone: 'Объединить не удалось: один из файлов списка удалили до начала.',
    empty: 'Файл пустой.',
    unreadable: 'Файл не читается.',
    'not-audio': 'В файле нет пригодного звука.',
    'bad-rate': 'Файл заявляет частоту дискретизации, которой не бывает у настоящего звука.',
    'bad-mp3': 'Файл MP3 повреждён.',
    'free-format': 'В файле MP3 свободный битрейт (free format), его нельзя присоединить.',
    'reencode-failed': 'Не удалось перекодировать файл.',
    'output-unwritable': 'Сервер не смог записать итоговый файл.',
    'disk-full': 'Диск сервера заполнен; попробуйте позже.',
    'tool-missing': 'Сервер не может запустить свои звуковые инструменты.',
    cancelled: 'Объединение отменено.',
    csrf: 'Срок действия страницы истёк; перезагрузите её, чтобы продолжить.',
    noSession: 'Срок действия страницы истёк; перезагрузите её, чтобы продолжить.',
    foreignFile: 'Этот файл не относится к этой странице.',
    foreignChannel: 'Ход этого объединения не относится к этой странице.',
    bodyTooLarge: 'Запрос слишком большой.',
    unsupportedMediaType: 'Сервер не смог прочитать запрос.',
    rangeNotSatisfiable: 'Такой части файла нет.',
    tusRefused: 'Сервер отклонил возобновляемую загрузку.',
    notReady: 'Сервер ещё не готов; попробуйте чуть позже.',
    'merge-too-long':
      'Слишком длинное объединение: вместе файлы звучат дольше, чем этот сервер объединяет за раз. Уберите часть файлов и попробуйте снова.',
    'too-many-merges':
      'У вас уже столько объединений в очереди или в работе, сколько разрешает этот сервер; дождитесь, пока одно из них закончится.',
    'format-change': 'Файл MP3 меняет формат посередине, его нельзя присоединить.',
    'bad-mp4': 'Файл MP4 повреждён.',
    'measure-failed': 'Не удалось измерить громкость файла.',
    'not-image': 'Обложка — не изображение JPEG или PNG.',
    'same-as-output': 'Один из файлов совпадает с итоговым.',
    badCover: 'Обложка должна быть изображением JPEG или PNG не больше 10 МБ и 4096 × 4096 пикселей.',
    choicesTooLarge: 'Ваши настройки слишком велики для сохранения (больше 16 КБ).',
    'chapter-past-end': 'Глава начинается после конца объединённого файла.',
    'too-many-chapters': 'Глав больше, чем вмещает формат (255 в MP3 и M4B, 999 в остальных).',
    badSpan: 'Оставляемый фрагмент не укладывается в файл.',
    badChapterTitle:
      'Название главы — одна строка не длиннее 500 символов, без управляющих символов и символов направления текста.',
    'bad-trim': 'Оставляемый фрагмент одного из файлов не укладывается в этот файл.',
  },

  /** A merge's failure about one input, naming it. */
  inputFailures: {
    empty: (file) => `Объединить не удалось: файл ${file} пуст.`,
    unreadable: (file) => `Объединить не удалось: файл ${file} не читается.`,
    'not-audio': (file) => `Объединить не удалось: в файле ${file} нет пригодного звука.`,
    'bad-rate': (file) =>
      `Объединить не удалось: файл ${file} заявляет частоту дискретизации, которой не бывает у настоящего звука.`,
    'bad-mp3': (file) => `Объединить не удалось: файл MP3 ${file} повреждён.`,
    'free-format': (file) =>
      `Объединить не удалось: в файле ${file} свободный битрейт MP3 (free format), его нельзя присоединить.`,
    'format-change': (file) =>
      `Объединить не удалось: файл ${file} меняет формат MP3 посередине, его нельзя присоединить.`,
    'bad-mp4': (file) => `Объединить не удалось: файл MP4 ${file} повреждён.`,
    'reencode-failed': (file) => `Объединить не удалось: файл ${file} не удалось перекодировать.`,
    'measure-failed': (file) => `Объединить не удалось: не удалось измерить громкость файла ${file}.`,
    'not-image': (file) => `Объединить не удалось: файл ${file} — не изображение JPEG или PNG.`,
    'same-as-output': (file) => `Объединить не удалось: файл ${file} совпадает с итоговым файлом.`,
  },

  chooseFiles: 'Выберите аудиофайлы',
  orDropThem: 'или перетащите их сюда — можно сразу несколько.',
  uploadWaiting: 'В очереди',
  uploadChecking: 'Проверяем…',
  uploadSent: 'Отправлен; ждёт файлы перед ним',
  uploaded: 'Загружен',
  uploadRefused: 'Отклонён',
  fileSize: (bytes) => f.size(bytes),
  overPageLimit: (name, mb) => `${name} больше допустимых ${f.number(mb)} МБ.`,
  uploadUnreached: (name) => `${name}: файл не дошёл до сервера (ошибка сети).`,
  uploadNotStored: (name) => `${name} не сохранён.`,
  uploadNoItem: (name) =>
    `${name} отправлен целиком, но сервер не сообщил, что сохранил его. Добавьте файл ещё раз.`,
  uploadTooLarge: (name) => `${name} слишком большой для сервера.`,
  uploadHttpRefused: (name, status) => `${name}: сервер отклонил загрузку (HTTP ${status}).`,
  batchSummary: (stored, tried) =>
    (stored === tried
      ? `Загружено: ${files(stored)}.`
      : `Загружено ${f.number(stored)} из ${filesOf(tried)}.`) +
    (stored === 1
      ? ' Он в конце списка, его можно поставить на место.'
      : ' Они в конце списка, их можно расставить.'),

  merged: (format) => `объединённый ${format.toUpperCase()}`,
  mergedOf: (what, first, more) => `${what} из ${first}${more > 0 ? ` и ещё ${filesOf(more)}` : ''}`,
  mergedAt: (what, when) => `${what}, ${when}`,
  dateTime: (at) => f.dateTime(at),
  playResult: (name) => `Воспроизвести ${name}`,
  downloadResult: (name) => `Скачать ${name}`,
  deleteResult: 'Удалить',
  deleteResultLabel: (name) => `Удалить ${name}`,
  deletingResult: 'Удаляем…',
  deleteResultFailed: (reason) => `Не удалось удалить этот файл: ${reason}`,
  noResults: 'Объединённых файлов пока нет.',
  resultCover: (title) => `Обложка: ${title}`,
  bookResult: (title, what) => `${what}: ${title}`,
};

export default ru;
