// Français.
import type { Locale } from './en.js';
import { formatsFor } from './format.js';

const f = formatsFor('fr');
const pos = (position: number, count: number) => `position ${f.number(position)} sur ${f.number(count)}`;

const fr: Locale = {
  loading: 'Chargement de vos fichiers…',
  empty: 'Rien à assembler pour l’instant. Envoyez des fichiers audio : ils apparaîtront ici.',
  loadFailed: (reason) => `Impossible de charger vos fichiers : ${reason}. Rechargez la page pour réessayer.`,
  hint: 'Faites glisser une ligne pour la déplacer, ou appuyez sur Espace dessus, puis ↑ ↓ Début Fin, et Espace pour la déposer.',
  uploading: 'Envoi en cours : les nouveaux fichiers s’ajoutent en fin de liste.',
  rowLabel: (name, position, count) => `${name}, ${pos(position, count)}`,
  rowRole: 'ligne déplaçable',
  position: (n) => f.number(n),
  duration: (seconds) => f.duration(seconds),
  play: (name) => `Écouter ${name}`,
  remove: (name) => `Retirer ${name}`,
  removed: (name) => `${name} retiré.`,
  undo: 'Annuler',
  undoLabel: (name) => `Annuler le retrait de ${name}`,
  removeFailed: (name, reason) => `Impossible de retirer ${name} : ${reason}`,
  orderNotSaved: (reason) => `Le nouvel ordre n’a pas pu être enregistré : ${reason}`,
  dismiss: 'Fermer',

  waveform: (name) => `Forme d’onde de ${name}`,
  trimStart: (name) => `Début de la partie conservée de ${name}`,
  trimEnd: (name) => `Fin de la partie conservée de ${name}`,
  timeText: (minutes, seconds) =>
    (minutes > 0 ? f.plural(minutes, { one: '{n} minute ', other: '{n} minutes ' }) : '') +
    f.plural(seconds, { one: '{n} seconde', other: '{n} secondes' }),
  keptLabel: (length, whole) => `${length} conservées sur ${whole}`,
  resetTrimLabel: (name) => `Garder ${name} en entier`,
  spanNotSaved: (name, reason) => `La coupe de ${name} n’a pas pu être enregistrée : ${reason}`,

  chapterTitle: 'Chapitre',
  chapterTitleLabel: (name) => `Titre du chapitre de ${name}`,
  chapterTitleNotSaved: (reason) => `Ce titre de chapitre n’a pas été enregistré : ${reason}.`,
  keepsOwnChapters: (n) =>
    f.plural(n, { one: 'Garde son propre chapitre', other: 'Garde ses {n} chapitres' }),
  keepsOwnChaptersHint:
    'Ce fichier porte ses propres chapitres : l’assemblage les garde, avec leurs titres, à partir de l’endroit où il commence.',

  pickedUp: (name, position, count) => `${name} saisi. Il est en ${pos(position, count)}.`,
  movedTo: (name, position, count) => `${name} est maintenant en ${pos(position, count)}.`,
  offList: (name) => `${name} n’est plus au-dessus de la liste.`,
  droppedAt: (name, position, count) => `${name} a été déposé en ${pos(position, count)}.`,
  dropped: (name) => `${name} a été déposé.`,
  dragCancelled: (name, position, count) => `Déplacement annulé. ${name} reste en ${pos(position, count)}.`,
  someFile: 'Le fichier',
  dragInstructions:
    'Pour déplacer ce fichier, appuyez sur Espace. Les flèches haut et bas changent sa position, Début ou Fin ' +
    'l’envoient tout en haut ou tout en bas ; Espace le dépose, Échap annule.',

  format: 'Format',
  chapters: 'Chapitres',
  formatLabels: {
    mp3: 'MP3',
    m4b: 'Livre audio M4B',
    m4a: 'M4A (AAC)',
    opus: 'Opus',
    ogg: 'Ogg Vorbis',
    flac: 'FLAC',
    wav: 'WAV',
  },
  formatNames: { mp3: 'MP3', m4b: 'M4B', m4a: 'M4A', opus: 'Opus', ogg: 'Ogg', flac: 'FLAC', wav: 'WAV' },
  makesFormat: (format) => `Crée un ${format}`,
  noChapters: (format) => `Les fichiers ${format} ne contiennent pas de chapitres.`,
  quality: 'Qualité',
  qualityLabels: {
    auto: 'Comme les fichiers',
    speechSmall: 'Voix, léger : 64 kbit/s mono',
    speech: 'Voix : 96 kbit/s mono',
    standard: 'Standard : 128 kbit/s',
    high: 'Haute : 192 kbit/s',
  },

  detailsToggle: 'Détails du livre',
  detailLabels: {
    title: 'Titre',
    artist: 'Auteur',
    narrator: 'Narrateur',
    album: 'Album',
    genre: 'Genre',
    year: 'Année',
    description: 'Description',
  },
  cover: 'Couverture',
  coverDrop: 'Déposez ici une image JPEG ou PNG, ou choisissez-en une',
  coverChoose: 'Choisir une image',
  coverRemove: 'Retirer la couverture',
  coverFailed: (reason) => `La couverture n’a pas pu être utilisée : ${reason}`,

  soundToggle: 'Options du son',
  soundSet: (n) => f.plural(n, { one: '{n} activée', other: '{n} activées' }),
  loudness: 'Égaliser le volume',
  loudnessHelp: 'Ramène tous les fichiers au même niveau sonore : plus besoin de toucher au volume.',
  loudnessTarget: 'Niveau visé',
  targetStereo: '-16 LUFS (stéréo)',
  targetMono: '-19 LUFS (voix, mono)',
  between: 'Entre les fichiers',
  betweenHelp: 'Rien, un silence, ou la fin de chaque fichier qui se fond dans le suivant.',
  betweenNone: 'Rien',
  betweenGap: 'Silence',
  betweenCrossfade: 'Fondu enchaîné',
  seconds: 'Secondes',
  badLength: (what, max) =>
    `${what === 'gap' ? 'Le silence entre les fichiers' : 'Le fondu enchaîné'} doit durer plus de 0 et au plus ${f.number(max)} secondes.`,
  trimSilence: 'Couper les silences',
  trimSilenceHelp: 'Supprime les blancs au début et à la fin de chaque fichier.',
  gapless: 'Sans blanc',
  gaplessHelp:
    'Retire les minuscules pauses ajoutées par les encodeurs : un album s’écoute d’un seul tenant.',

  progressGroup: 'Assemblage de vos fichiers',
  progressFailedGroup: 'L’assemblage n’a pas abouti',
  progressBar: 'Progression',
  percent: (p) => f.percent(p),
  stages: {
    waiting: 'En attente',
    reading: 'Lecture des fichiers',
    encoding: 'Encodage',
    writing: 'Écriture du fichier',
    storing: 'Enregistrement du résultat',
  },
  fileOf: (file, files) => `fichier ${f.number(file)} sur ${f.number(files)}`,
  timeLeft: (seconds) => `encore environ ${f.roughDuration(seconds)}`,
  waitingToStart: 'En attente de démarrage',
  waitingAhead: (ahead) =>
    f.plural(ahead, {
      one: 'En attente : {n} assemblage avant le vôtre',
      other: 'En attente : {n} assemblages avant le vôtre',
    }),
  cancel: 'Annuler l’assemblage',
  cancelling: 'Annulation…',
  reload: 'Recharger',
  mergeFailed: 'L’assemblage a échoué.',
  mergeCancelled: 'L’assemblage a été annulé.',
  connectionLost: 'Connexion au serveur perdue ; en attente de son retour…',
  expired: 'Cette page a expiré ; rechargez-la pour recommencer.',

  serverMessages: {
    badRequest: 'La demande n’est pas valide.',
    notFound: 'Introuvable : il a peut-être déjà été supprimé.',
    noMerge: 'Aucun assemblage de votre part n’est en attente ou en cours.',
    foreignItem: 'Un fichier de la liste n’appartient pas à cette page.',
    itemInMerge: 'Ce fichier fait partie d’un assemblage en cours ; retirez-le une fois celui-ci terminé.',
    endNotRecorded:
      'Votre assemblage est terminé, mais le serveur n’a pas pu enregistrer son issue ; rechargez la page dans un instant pour la voir.',
    tooLarge: 'Le fichier est trop volumineux.',
    tooManyFiles: 'Cette liste contient trop de fichiers.',
    noItems: 'Il n’y a rien à assembler.',
    rateLimited: 'Trop de demandes ; patientez un instant puis réessayez.',
    unavailable: 'Le serveur est en cours d’arrêt ; réessayez dans un moment.',
    internal: 'Une erreur s’est produite sur le serveur.',
    mergeFailed: 'L’assemblage a échoué sur le serveur ; veuillez réessayer.',
    mergeStopped: 'Le serveur s’arrête et a interrompu cet assemblage ; relancez-le dans un moment.',
    interrupted: 'Le serveur a redémarré pendant l’assemblage ; veuillez le relancer.',
    itemGone: 'Assemblage impossible : un fichier de la liste a été supprimé avant le début.',
    empty: 'Le fichier est vide.',
    unreadable: 'Le fichier est illisible.',
    'not-audio': 'Le fichier ne contient pas d’audio exploitable.',
    'bad-rate': 'Le fichier annonce une fréquence d’échantillonnage qu’aucun vrai son n’a.',
    'bad-mp3': 'Le fichier MP3 est endommagé.',
    'free-format': 'Le fichier MP3 utilise un débit libre (free format) et ne peut pas être assemblé.',
    'reencode-failed': 'Le fichier n’a pas pu être réencodé.',
    'output-unwritable': 'Le serveur n’a pas pu écrire le fichier assemblé.',
    'disk-full': 'Le disque du serveur est plein ; réessayez plus tard.',
    'tool-missing': 'Le serveur ne parvient pas à lancer ses outils audio.',
    cancelled: 'L’assemblage a été annulé.',
    csrf: 'Cette page a expiré ; rechargez-la pour continuer.',
    noSession: 'Cette page a expiré ; rechargez-la pour continuer.',
    foreignFile: 'Ce fichier n’appartient pas à cette page.',
    foreignChannel: 'La progression de cet assemblage n’appartient pas à cette page.',
    bodyTooLarge: 'La demande est trop volumineuse.',
    unsupportedMediaType: 'Le serveur n’a pas pu lire la demande.',
    rangeNotSatisfiable: 'Cette partie du fichier n’existe pas.',
    tusRefused: 'Le serveur a refusé l’envoi reprenable.',
    notReady: 'Le serveur n’est pas encore prêt ; réessayez dans un moment.',
    'merge-too-long':
      'L’assemblage serait trop long : mis bout à bout, les fichiers durent plus que ce que ce serveur assemble en une fois. Retirez-en quelques-uns et réessayez.',
    'too-many-merges':
      'Vous avez déjà autant d’assemblages en attente ou en cours que ce serveur le permet ; attendez qu’un d’eux se termine.',
    'format-change': 'Le fichier MP3 change de format en cours de route et ne peut pas être assemblé.',
    'bad-mp4': 'Le fichier MP4 est endommagé.',
    'measure-failed': 'Le volume sonore du fichier n’a pas pu être mesuré.',
    'not-image': 'La couverture n’est pas une image JPEG ou PNG.',
    'same-as-output': 'Un fichier est aussi le fichier de sortie.',
    badCover: 'La couverture doit être une image JPEG ou PNG de 10 Mo et 4096 × 4096 pixels au plus.',
    choicesTooLarge: 'Vos choix sont trop volumineux pour être conservés (plus de 16 Ko).',
    'chapter-past-end': 'Un chapitre commence après la fin du fichier assemblé.',
    'too-many-chapters':
      'Il y a plus de chapitres que le format n’en contient (255 en MP3 et M4B, 999 dans les autres).',
    badSpan: 'La partie conservée ne correspond pas au fichier.',
    badChapterTitle:
      'Un titre de chapitre tient sur une ligne de 500 caractères au plus, sans caractères de contrôle ni de direction du texte.',
    'bad-trim': 'La partie conservée d’un fichier ne correspond pas à ce fichier.',
  },

  /** A merge's failure about one input, naming it. */
  inputFailures: {
    empty: (file) => `Assemblage impossible : ${file} est vide.`,
    unreadable: (file) => `Assemblage impossible : ${file} ne peut pas être lu.`,
    'not-audio': (file) => `Assemblage impossible : ${file} ne contient pas d’audio exploitable.`,
    'bad-rate': (file) =>
      `Assemblage impossible : ${file} annonce une fréquence d’échantillonnage qu’aucun vrai son n’a.`,
    'bad-mp3': (file) => `Assemblage impossible : ${file} est un fichier MP3 endommagé.`,
    'free-format': (file) =>
      `Assemblage impossible : ${file} utilise un débit MP3 libre (free format) et ne peut pas être assemblé.`,
    'format-change': (file) =>
      `Assemblage impossible : ${file} change de format MP3 en cours de route et ne peut pas être assemblé.`,
    'bad-mp4': (file) => `Assemblage impossible : ${file} est un fichier MP4 endommagé.`,
    'reencode-failed': (file) => `Assemblage impossible : ${file} n’a pas pu être réencodé.`,
    'measure-failed': (file) => `Assemblage impossible : Le volume sonore de ${file} n’a pas pu être mesuré.`,
    'not-image': (file) => `Assemblage impossible : ${file} n’est pas une image JPEG ou PNG.`,
    'same-as-output': (file) => `Assemblage impossible : ${file} est aussi le fichier de sortie.`,
  },

  chooseFiles: 'Choisir des fichiers audio',
  orDropThem: 'ou déposez-les ici, plusieurs à la fois si vous voulez.',
  uploadWaiting: 'En attente',
  uploadChecking: 'Vérification…',
  uploadSent: 'Envoyé ; attend les fichiers précédents',
  uploaded: 'Envoyé',
  uploadRefused: 'Refusé',
  fileSize: (bytes) => f.size(bytes),
  overPageLimit: (name, mb) => `${name} dépasse la limite de ${f.number(mb)} Mo.`,
  uploadUnreached: (name) => `${name} : l’envoi n’a pas atteint le serveur (erreur réseau).`,
  uploadNotStored: (name) => `${name} n’a pas été enregistré.`,
  uploadNoItem: (name) =>
    `${name} a été envoyé en entier, mais le serveur n’a pas indiqué l’avoir enregistré. Ajoutez le fichier à nouveau.`,
  uploadTooLarge: (name) => `${name} est trop volumineux pour le serveur.`,
  uploadHttpRefused: (name, status) => `${name} : le serveur a refusé l’envoi (HTTP ${status}).`,
  batchSummary: (stored, tried) =>
    stored === tried
      ? f.plural(stored, {
          one: '{n} fichier envoyé. Il est en fin de liste, prêt à être placé.',
          other: '{n} fichiers envoyés. Ils sont en fin de liste, prêts à être placés.',
        })
      : f
          .plural(stored, { one: '{n} fichier sur {t} envoyé. ', other: '{n} fichiers sur {t} envoyés. ' })
          .replace('{t}', f.number(tried)) +
        (stored === 1 ? 'Il est en fin de liste.' : 'Ils sont en fin de liste.'),

  merged: (format) => `${format.toUpperCase()} assemblé`,
  mergedOf: (what, first, more) =>
    `${what} à partir de ${first}${more > 0 ? f.plural(more, { one: ' et {n} autre', other: ' et {n} autres' }) : ''}`,
  mergedAt: (what, when) => `${what}, ${when}`,
  dateTime: (at) => f.dateTime(at),
  playResult: (name) => `Écouter ${name}`,
  downloadResult: (name) => `Télécharger ${name}`,
  deleteResult: 'Supprimer',
  deleteResultLabel: (name) => `Supprimer ${name}`,
  deletingResult: 'Suppression…',
  deleteResultFailed: (reason) => `Impossible de supprimer ce fichier : ${reason}`,
  noResults: 'Aucun fichier assemblé pour l’instant.',
  resultCover: (title) => `Couverture de ${title}`,
  bookResult: (title, what) => `${what} : ${title}`,
};

export default fr;
