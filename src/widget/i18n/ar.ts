// العربية: the widget is laid out right to left in this language.
import type { Locale } from './en.js';
import { formatsFor } from './format.js';

const f = formatsFor('ar');
/** A name, number or unit set apart from the right-to-left sentence around it (first-strong isolate). */
const iso = (text: string) => `\u2068${text}\u2069`;
const pos = (position: number, count: number) => `الموضع ${f.number(position)} من ${f.number(count)}`;
const files = (n: number) =>
  f.plural(n, {
    zero: 'لا ملفات',
    one: 'ملف واحد',
    two: 'ملفان',
    few: '{n} ملفات',
    many: '{n} ملفًا',
    other: '{n} ملف',
  });

const ar: Locale = {
  loading: 'جارٍ تحميل ملفاتك…',
  empty: 'لا يوجد ما يُدمج بعد. ارفع بعض الملفات الصوتية وستظهر هنا.',
  loadFailed: (reason) => `تعذّر تحميل ملفاتك: ${reason}. أعد تحميل الصفحة للمحاولة مرة أخرى.`,
  hint: 'اسحب صفًا لنقله، أو اضغط مفتاح المسافة عليه ثم ↑ ↓ Home End، ثم المسافة مرة أخرى لإفلاته.',
  uploading: 'جارٍ الرفع: تنضم الملفات الجديدة إلى آخر القائمة.',
  rowLabel: (name, position, count) => `${name}، ${pos(position, count)}`,
  rowRole: 'صف قابل للنقل',
  position: (n) => f.number(n),
  duration: (seconds) => f.duration(seconds),
  play: (name) => `تشغيل ${name}`,
  remove: (name) => `إزالة ${name}`,
  removed: (name) => `أُزيل ${iso(name)}.`,
  undo: 'تراجع',
  undoLabel: (name) => `التراجع عن إزالة ${name}`,
  removeFailed: (name, reason) => `تعذّرت إزالة ${iso(name)}: ${reason}`,
  orderNotSaved: (reason) => `تعذّر حفظ الترتيب الجديد: ${reason}`,
  dismiss: 'إغلاق',

  waveform: (name) => `الشكل الموجي لـ ${name}`,
  trimStart: (name) => `بداية الجزء المحتفظ به من ${name}`,
  trimEnd: (name) => `نهاية الجزء المحتفظ به من ${name}`,
  timeText: (minutes, seconds) =>
    (minutes > 0
      ? f.plural(minutes, {
          zero: '{n} دقيقة ',
          one: 'دقيقة واحدة ',
          two: 'دقيقتان ',
          few: '{n} دقائق ',
          many: '{n} دقيقة ',
          other: '{n} دقيقة ',
        })
      : '') +
    f.plural(seconds, {
      zero: '{n} ثانية',
      one: 'ثانية واحدة',
      two: 'ثانيتان',
      few: '{n} ثوانٍ',
      many: '{n} ثانية',
      other: '{n} ثانية',
    }),
  keptLabel: (length, whole) => `محتفظ بـ ${iso(length)} من ${iso(whole)}`,
  resetTrimLabel: (name) => `الاحتفاظ بـ ${name} كاملًا`,
  spanNotSaved: (name, reason) => `تعذّر حفظ قصّ ${iso(name)}: ${reason}`,

  chapterTitle: 'الفصل',
  chapterTitleLabel: (name) => `عنوان الفصل لـ ${name}`,
  chapterTitleNotSaved: (reason) => `لم يُحفظ عنوان هذا الفصل: ${reason}.`,
  keepsOwnChapters: (n) =>
    f.plural(n, {
      zero: 'يحتفظ بفصوله ({n})',
      one: 'يحتفظ بفصله الوحيد',
      two: 'يحتفظ بفصليه',
      few: 'يحتفظ بفصوله الـ{n}',
      many: 'يحتفظ بفصوله الـ{n}',
      other: 'يحتفظ بفصوله الـ{n}',
    }),
  keepsOwnChaptersHint: 'يحمل هذا الملف فصوله الخاصة: يحتفظ بها الدمج بعناوينها بدءًا من موضع بداية الملف.',

  pickedUp: (name, position, count) => `التقطت ${name}. إنه في ${pos(position, count)}.`,
  movedTo: (name, position, count) => `نُقل ${name} إلى ${pos(position, count)}.`,
  offList: (name) => `لم يعد ${name} فوق القائمة.`,
  droppedAt: (name, position, count) => `أُفلت ${name} في ${pos(position, count)}.`,
  dropped: (name) => `أُفلت ${name}.`,
  dragCancelled: (name, position, count) => `أُلغي النقل. يبقى ${name} في ${pos(position, count)}.`,
  someFile: 'الملف',
  dragInstructions:
    'لنقل هذا الملف اضغط مفتاح المسافة. استخدم مفتاحي السهم للأعلى وللأسفل لتغيير موضعه، وHome أو End لنقله ' +
    'إلى أول القائمة أو آخرها، ثم المسافة مرة أخرى لإفلاته، أو Escape للإلغاء.',

  format: 'الصيغة',
  chapters: 'الفصول',
  formatLabels: {
    mp3: 'MP3',
    m4b: 'كتاب صوتي M4B',
    m4a: 'M4A (AAC)',
    opus: 'Opus',
    ogg: 'Ogg Vorbis',
    flac: 'FLAC',
    wav: 'WAV',
  },
  formatNames: { mp3: 'MP3', m4b: 'M4B', m4a: 'M4A', opus: 'Opus', ogg: 'Ogg', flac: 'FLAC', wav: 'WAV' },
  makesFormat: (format) => `يُنشئ ملف ${iso(format)}`,
  noChapters: (format) => `ملفات ${iso(format)} لا تحمل فصولًا.`,
  quality: 'الجودة',
  qualityLabels: {
    auto: 'كما هي الملفات',
    speechSmall: 'كلام، حجم صغير: 64 كيلوبت/ث أحادي',
    speech: 'كلام: 96 كيلوبت/ث أحادي',
    standard: 'قياسية: 128 كيلوبت/ث',
    high: 'عالية: 192 كيلوبت/ث',
  },

  detailsToggle: 'تفاصيل الكتاب',
  detailLabels: {
    title: 'العنوان',
    artist: 'المؤلف',
    narrator: 'الراوي',
    album: 'الألبوم',
    genre: 'النوع',
    year: 'السنة',
    description: 'الوصف',
  },
  cover: 'الغلاف',
  coverDrop: 'أفلت صورة JPEG أو PNG هنا، أو اختر واحدة',
  coverChoose: 'اختر صورة',
  coverRemove: 'إزالة الغلاف',
  coverFailed: (reason) => `تعذّر استخدام الغلاف: ${reason}`,

  soundToggle: 'خيارات الصوت',
  soundSet: (n) =>
    f.plural(n, {
      zero: 'لا شيء مفعّل',
      one: 'خيار مفعّل',
      two: 'خياران مفعّلان',
      few: '{n} خيارات مفعّلة',
      many: '{n} خيارًا مفعّلًا',
      other: '{n} خيار مفعّل',
    }),
  loudness: 'توحيد مستوى الصوت',
  loudnessHelp: 'يجعل كل الملفات بمستوى صوت واحد، فلا يضطر أحد إلى رفع الصوت أو خفضه.',
  loudnessTarget: 'مستوى الصوت المستهدف',
  // A left-to-right mark first, so the minus sign stays in front of the number.
  targetStereo: '\u2066-16 LUFS\u2069 (ستيريو)',
  targetMono: '\u2066-19 LUFS\u2069 (كلام أحادي)',
  between: 'بين الملفات',
  betweenHelp: 'لا شيء، أو فاصل من الصمت، أو تلاشي نهاية كل ملف في بداية الذي يليه.',
  betweenNone: 'لا شيء',
  betweenGap: 'صمت',
  betweenCrossfade: 'تلاشٍ متداخل',
  seconds: 'ثوانٍ',
  badLength: (what, max) =>
    `${what === 'gap' ? 'الصمت بين الملفات' : 'التلاشي المتداخل'} يجب أن يكون عددًا من الثواني أكبر من ${f.number(0)} ولا يزيد على ${f.number(max)}.`,
  trimSilence: 'قص الصمت',
  trimSilenceHelp: 'يحذف الصمت في بداية كل ملف ونهايته.',
  gapless: 'بلا فواصل',
  gaplessHelp: 'يزيل الفواصل الدقيقة التي تضيفها برامج الترميز، فيُسمع الألبوم متصلًا.',

  progressGroup: 'جارٍ دمج ملفاتك',
  progressFailedGroup: 'لم يكتمل الدمج',
  progressBar: 'تقدم الدمج',
  percent: (p) => f.percent(p),
  stages: {
    waiting: 'في الانتظار',
    reading: 'قراءة الملفات',
    encoding: 'الترميز',
    writing: 'كتابة الملف',
    storing: 'حفظ النتيجة',
  },
  fileOf: (file, files) => `الملف ${f.number(file)} من ${f.number(files)}`,
  timeLeft: (seconds) => `الوقت المتبقي: حوالي ${f.roughDuration(seconds)}`,
  waitingToStart: 'في انتظار البدء',
  waitingAhead: (ahead) =>
    f.plural(ahead, {
      zero: 'في الانتظار: لا عمليات دمج أمامك',
      one: 'في الانتظار: أمامك عملية دمج واحدة',
      two: 'في الانتظار: أمامك عمليتا دمج',
      few: 'في الانتظار: أمامك {n} عمليات دمج',
      many: 'في الانتظار: أمامك {n} عملية دمج',
      other: 'في الانتظار: أمامك {n} عملية دمج',
    }),
  cancel: 'إلغاء الدمج',
  cancelling: 'جارٍ الإلغاء…',
  reload: 'إعادة التحميل',
  mergeFailed: 'فشل الدمج.',
  mergeCancelled: 'أُلغي الدمج.',
  connectionLost: 'انقطع الاتصال بالخادم؛ ننتظر عودته…',
  expired: 'انتهت صلاحية هذه الصفحة؛ أعد تحميلها للبدء من جديد',

  serverMessages: {
    badRequest: 'الطلب غير صالح.',
    notFound: 'غير موجود: ربما حُذف من قبل.',
    noMerge: 'لا توجد عملية دمج لك في الانتظار أو قيد التنفيذ.',
    foreignItem: 'ملف في القائمة لا ينتمي إلى هذه الصفحة.',
    itemInMerge: 'هذا الملف جزء من عملية دمج جارية؛ أزله بعد انتهائها.',
    endNotRecorded:
      'انتهت عملية الدمج، لكن الخادم لم يتمكن من تسجيل نتيجتها؛ أعد تحميل الصفحة بعد قليل لرؤيتها.',
    tooLarge: 'الملف كبير جدًا.',
    tooManyFiles: 'في هذه القائمة ملفات أكثر من اللازم.',
    noItems: 'لا يوجد ما يُدمج.',
    rateLimited: 'طلبات كثيرة جدًا؛ انتظر قليلًا ثم حاول مرة أخرى.',
    unavailable: 'الخادم يتوقف الآن؛ حاول مرة أخرى بعد قليل.',
    internal: 'حدث خطأ ما في الخادم.',
    mergeFailed: 'فشل الدمج على الخادم؛ يرجى المحاولة مرة أخرى.',
    mergeStopped: 'الخادم يتوقف وقد أوقف عملية الدمج هذه؛ ابدأها من جديد بعد قليل.',
    interrupted: 'أُعيد تشغيل الخادم أثناء الدمج؛ يرجى البدء من جديد.',
    itemGone: 'تعذّر الدمج: حُذف ملف من القائمة قبل بدء الدمج.',
    empty: 'الملف فارغ.',
    unreadable: 'تتعذّر قراءة الملف.',
    'not-audio': 'الملف لا يحتوي على صوت صالح للاستخدام.',
    'bad-rate': 'يذكر الملف معدل عينات لا يوجد في أي صوت حقيقي.',
    'bad-mp3': 'ملف MP3 تالف.',
    'free-format': 'ملف MP3 يستخدم معدل بتات حرًا (free format) ولا يمكن دمجه.',
    'reencode-failed': 'تعذّرت إعادة ترميز الملف.',
    'output-unwritable': 'تعذّر على الخادم كتابة الملف المدموج.',
    'disk-full': 'قرص الخادم ممتلئ؛ حاول لاحقًا.',
    'tool-missing': 'لا يستطيع الخادم تشغيل أدواته الصوتية.',
    cancelled: 'أُلغي الدمج.',
    csrf: 'انتهت صلاحية هذه الصفحة؛ أعد تحميلها للمتابعة.',
    noSession: 'انتهت صلاحية هذه الصفحة؛ أعد تحميلها للمتابعة.',
    foreignFile: 'هذا الملف لا ينتمي إلى هذه الصفحة.',
    foreignChannel: 'تقدّم عملية الدمج هذه لا ينتمي إلى هذه الصفحة.',
    bodyTooLarge: 'الطلب كبير جدًا.',
    unsupportedMediaType: 'تعذّر على الخادم قراءة الطلب.',
    rangeNotSatisfiable: 'هذا الجزء من الملف غير موجود.',
    tusRefused: 'رفض الخادم الرفع القابل للاستئناف.',
    notReady: 'الخادم ليس جاهزًا بعد؛ حاول مرة أخرى بعد قليل.',
    'merge-too-long':
      'الدمج أطول مما ينبغي: مدة الملفات معًا تتجاوز ما يدمجه هذا الخادم دفعة واحدة. أزل بعضها ثم حاول مرة أخرى.',
    'too-many-merges':
      'لديك بالفعل أقصى عدد من عمليات الدمج المنتظرة أو الجارية يسمح به هذا الخادم؛ انتظر حتى تنتهي إحداها.',
    'format-change': 'ملف MP3 يغيّر صيغته في منتصفه ولا يمكن دمجه.',
    'bad-mp4': 'ملف MP4 تالف.',
    'measure-failed': 'تعذّر قياس علوّ صوت الملف.',
    'not-image': 'الغلاف ليس صورة بصيغة JPEG أو PNG.',
    'same-as-output': 'أحد الملفات هو نفسه ملف الناتج.',
    badCover:
      'يجب أن يكون الغلاف صورة JPEG أو PNG لا يزيد حجمها على 10 ميغابايت وأبعادها على 4096 × 4096 بكسل.',
    choicesTooLarge: 'اختياراتك أكبر من أن تُحفظ (أكثر من 16 كيلوبايت).',
    'chapter-past-end': 'يبدأ أحد الفصول بعد نهاية الملف المدموج.',
    'too-many-chapters': 'عدد الفصول أكبر مما يتسع له التنسيق (255 في MP3 وM4B، و999 في غيرهما).',
    badSpan: 'الجزء المُبقى عليه لا يقع ضمن الملف.',
    badChapterTitle: 'عنوان الفصل سطر واحد لا يزيد على 500 حرف، بلا محارف تحكم ولا محارف تحكم في اتجاه النص.',
    'bad-trim': 'الجزء المُبقى عليه من أحد الملفات لا يقع ضمن ذلك الملف.',
  },

  /** A merge's failure about one input, naming it. */
  inputFailures: {
    empty: (file) => `تعذّر الدمج: الملف ${file} فارغ.`,
    unreadable: (file) => `تعذّر الدمج: تتعذّر قراءة الملف ${file}.`,
    'not-audio': (file) => `تعذّر الدمج: الملف ${file} لا يحتوي على صوت صالح للاستخدام.`,
    'bad-rate': (file) => `تعذّر الدمج: الملف ${file} يذكر معدل عينات لا يوجد في أي صوت حقيقي.`,
    'bad-mp3': (file) => `تعذّر الدمج: ملف MP3 ${file} تالف.`,
    'free-format': (file) =>
      `تعذّر الدمج: الملف ${file} يستخدم معدل بتات MP3 حرًا (free format) ولا يمكن دمجه.`,
    'format-change': (file) => `تعذّر الدمج: الملف ${file} يغيّر صيغة MP3 في منتصفه ولا يمكن دمجه.`,
    'bad-mp4': (file) => `تعذّر الدمج: ملف MP4 ${file} تالف.`,
    'reencode-failed': (file) => `تعذّر الدمج: تعذّرت إعادة ترميز الملف ${file}.`,
    'measure-failed': (file) => `تعذّر الدمج: تعذّر قياس علوّ صوت الملف ${file}.`,
    'not-image': (file) => `تعذّر الدمج: الملف ${file} ليس صورة JPEG أو PNG.`,
    'same-as-output': (file) => `تعذّر الدمج: الملف ${file} هو نفسه ملف الناتج.`,
  },

  chooseFiles: 'اختر ملفات صوتية',
  orDropThem: 'أو أفلتها هنا، ويمكنك إضافة عدة ملفات معًا.',
  uploadWaiting: 'في الانتظار',
  uploadChecking: 'جارٍ الفحص…',
  uploadSent: 'أُرسل؛ ينتظر الملفات التي قبله',
  uploaded: 'رُفع',
  uploadRefused: 'رُفض',
  fileSize: (bytes) => f.size(bytes),
  overPageLimit: (name, mb) => `${iso(name)} أكبر من الحد المسموح به وهو ${f.number(mb)} ميغابايت.`,
  uploadUnreached: (name) => `${iso(name)}: لم يصل الرفع إلى الخادم (خطأ في الشبكة).`,
  uploadNotStored: (name) => `لم يُحفظ ${name}.`,
  uploadNoItem: (name) => `أُرسل ${name} كاملًا، لكن الخادم لم يُفِد بأنه حفظه. أضف الملف مرة أخرى.`,
  uploadTooLarge: (name) => `${name} أكبر مما يقبله الخادم.`,
  uploadHttpRefused: (name, status) => `${name}: رفض الخادم الرفع (HTTP ${status}).`,
  batchSummary: (stored, tried) =>
    (stored === tried ? `رُفع ${files(stored)}.` : `رُفع ${f.number(stored)} من ${files(tried)}.`) +
    ' ستجدها في آخر القائمة لترتيبها.',

  merged: (format) => `ملف ${format.toUpperCase()} مدموج`,
  mergedOf: (what, first, more) =>
    `${what} من ${first}${
      more > 0
        ? f.plural(more, {
            one: ' وملف آخر',
            two: ' وملفين آخرين',
            few: ' و{n} ملفات أخرى',
            many: ' و{n} ملفًا آخر',
            other: ' و{n} ملف آخر',
          })
        : ''
    }`,
  mergedAt: (what, when) => `${what}، ${when}`,
  dateTime: (at) => f.dateTime(at),
  playResult: (name) => `تشغيل ${name}`,
  downloadResult: (name) => `تنزيل ${name}`,
  deleteResult: 'حذف',
  deleteResultLabel: (name) => `حذف ${name}`,
  deletingResult: 'جارٍ الحذف…',
  deleteResultFailed: (reason) => `تعذّر حذف هذا الملف: ${reason}`,
  noResults: 'لا توجد ملفات مدموجة بعد.',
  resultCover: (title) => `غلاف ${title}`,
  bookResult: (title, what) => `${what}: ${title}`,
};

export default ar;
