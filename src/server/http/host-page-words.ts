// The host page's own words in each language the widget speaks; the page follows the browser's
// Accept-Language and tells the widget the same language (lang and data-locale).
import type { LocaleCode } from '../../shared/locales.js';

export interface HostPageWords {
  heading: string;
  lead: string;
  upload: string;
  uploadButton: string;
  uploadHint: (maxMb: string) => string;
  /** The make button's label; the widget puts the chosen format in place of {format}. */
  makeLabel: string;
  title: string;
  results: string;
  noResults: string;
  download: string;
  chapters: string;
  joinedFrom: string;
  /** A result's cover image, for a reader who cannot see it. */
  coverOf: (title: string) => string;
  author: string;
  narrator: string;
}

export const HOST_PAGE_WORDS: Record<LocaleCode, HostPageWords> = {
  en: {
    heading: 'Audio merge',
    lead: 'Upload audio files, drag them into order, and make one file: MP3, M4B audiobook, Opus, FLAC and more.',
    upload: 'Upload',
    uploadButton: 'Upload',
    uploadHint: (mb) => `Up to ${mb} MB per file: MP3, WAV, FLAC, Ogg, Opus, M4A/AAC and more.`,
    makeLabel: 'Make {format}',
    title: 'Drag the files into the order you want',
    results: 'Merged files',
    noResults: 'No merged files yet.',
    download: 'Download',
    chapters: 'Chapters',
    joinedFrom: 'Joined from',
    coverOf: (title) => `Cover of ${title}`,
    author: 'Author',
    narrator: 'Narrator',
  },
  de: {
    heading: 'Audio zusammenfügen',
    lead: 'Lade Audiodateien hoch, bring sie in die richtige Reihenfolge und mach eine Datei daraus: MP3, M4B-Hörbuch, Opus, FLAC und mehr.',
    upload: 'Hochladen',
    uploadButton: 'Hochladen',
    uploadHint: (mb) => `Bis zu ${mb} MB pro Datei: MP3, WAV, FLAC, Ogg, Opus, M4A/AAC und mehr.`,
    makeLabel: '{format} erstellen',
    title: 'Zieh die Dateien in die gewünschte Reihenfolge',
    results: 'Zusammengefügte Dateien',
    noResults: 'Noch keine zusammengefügten Dateien.',
    download: 'Herunterladen',
    chapters: 'Kapitel',
    joinedFrom: 'Zusammengefügt aus',
    coverOf: (title) => `Cover von ${title}`,
    author: 'Autor',
    narrator: 'Sprecher',
  },
  fr: {
    heading: 'Assemblage audio',
    lead: 'Envoyez vos fichiers audio, mettez-les dans l’ordre et obtenez un seul fichier : MP3, livre audio M4B, Opus, FLAC et plus encore.',
    upload: 'Envoi',
    uploadButton: 'Envoyer',
    uploadHint: (mb) => `Jusqu’à ${mb} Mo par fichier : MP3, WAV, FLAC, Ogg, Opus, M4A/AAC et d’autres.`,
    makeLabel: 'Créer le {format}',
    title: 'Faites glisser les fichiers dans l’ordre voulu',
    results: 'Fichiers assemblés',
    noResults: 'Aucun fichier assemblé pour l’instant.',
    download: 'Télécharger',
    chapters: 'Chapitres',
    joinedFrom: 'Assemblé à partir de',
    coverOf: (title) => `Couverture de ${title}`,
    author: 'Auteur',
    narrator: 'Narrateur',
  },
  es: {
    heading: 'Unir audio',
    lead: 'Sube archivos de audio, ordénalos arrastrándolos y crea un solo archivo: MP3, audiolibro M4B, Opus, FLAC y más.',
    upload: 'Subir',
    uploadButton: 'Subir',
    uploadHint: (mb) => `Hasta ${mb} MB por archivo: MP3, WAV, FLAC, Ogg, Opus, M4A/AAC y más.`,
    makeLabel: 'Crear {format}',
    title: 'Arrastra los archivos al orden que quieras',
    results: 'Archivos unidos',
    noResults: 'Todavía no hay archivos unidos.',
    download: 'Descargar',
    chapters: 'Capítulos',
    joinedFrom: 'Unido a partir de',
    coverOf: (title) => `Portada de ${title}`,
    author: 'Autor',
    narrator: 'Narrador',
  },
  ru: {
    heading: 'Объединение аудио',
    lead: 'Загрузите аудиофайлы, расставьте их по порядку и получите один файл: MP3, аудиокнигу M4B, Opus, FLAC и не только.',
    upload: 'Загрузка',
    uploadButton: 'Загрузить',
    uploadHint: (mb) => `До ${mb} МБ на файл: MP3, WAV, FLAC, Ogg, Opus, M4A/AAC и другие.`,
    makeLabel: 'Создать {format}',
    title: 'Перетащите файлы в нужном порядке',
    results: 'Объединённые файлы',
    noResults: 'Объединённых файлов пока нет.',
    download: 'Скачать',
    chapters: 'Главы',
    joinedFrom: 'Собрано из',
    coverOf: (title) => `Обложка: ${title}`,
    author: 'Автор',
    narrator: 'Чтец',
  },
  ar: {
    heading: 'دمج الملفات الصوتية',
    lead: 'ارفع ملفاتك الصوتية، ورتّبها بالسحب، واصنع منها ملفًا واحدًا: MP3 أو كتابًا صوتيًا M4B أو Opus أو FLAC وغيرها.',
    upload: 'الرفع',
    uploadButton: 'رفع',
    uploadHint: (mb) => `حتى ${mb} ميغابايت لكل ملف: MP3 وWAV وFLAC وOgg وOpus وM4A/AAC وغيرها.`,
    makeLabel: 'إنشاء {format}',
    title: 'اسحب الملفات إلى الترتيب الذي تريده',
    results: 'الملفات المدموجة',
    noResults: 'لا توجد ملفات مدموجة بعد.',
    download: 'تنزيل',
    chapters: 'الفصول',
    joinedFrom: 'مدموج من',
    coverOf: (title) => `غلاف ${title}`,
    author: 'المؤلف',
    narrator: 'الراوي',
  },
};
