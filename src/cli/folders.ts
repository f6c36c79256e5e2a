// A folder given as an input stands for the audio files directly in it, in natural order of their
// names (`2` before `10`), as m4b-tool and others read one. Audio is told by extension, not by a
// probe: a folder's cover.jpg, notes.txt or playlist.m3u is skipped at once, and an audio file
// that turns out broken is refused by name like any other input.

/** Extensions of the audio files a folder contributes (matched in any case). */
export const AUDIO_EXTENSIONS: readonly string[] = [
  'mp3',
  'mp2',
  'wav',
  'flac',
  'ogg',
  'oga',
  'opus',
  'm4a',
  'm4b',
  'aac',
  'aif',
  'aiff',
  'aifc',
  'wma',
  'ape',
  'wv',
  'mpc',
  'ac3',
  'amr',
  'au',
  'caf',
  'spx',
  'tta',
  'mka',
  'w64',
];

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Natural order of names: digit runs compare by value, letters ignore case; ties by code points. */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

const AUDIO = new RegExp(`\\.(${AUDIO_EXTENSIONS.join('|')})$`, 'i');

/** Of a folder's plain files, the audio ones in natural order; hidden files are never inputs. */
export function audioFilesOf(fileNames: readonly string[]): string[] {
  return fileNames.filter((n) => !n.startsWith('.') && AUDIO.test(n)).sort(naturalCompare);
}

export interface FolderReader {
  isFolder(p: string): boolean;
  /** Names of the plain files (not folders) directly in `folder`; throws when it cannot be read. */
  filesIn(folder: string): string[];
  /** Whether two paths name the same file. */
  same(a: string, b: string): boolean;
}

export type Expanded = { ok: true; inputs: string[] } | { ok: false; input: string; reason: string };

/**
 * The inputs with each folder replaced by its audio files (`output` left out, so a folder can be
 * merged into a file inside it again). A folder that holds none, or cannot be read, is refused.
 */
export function expandFolders(inputs: readonly string[], output: string, fs: FolderReader): Expanded {
  const expanded: string[] = [];
  for (const input of inputs) {
    if (!fs.isFolder(input)) {
      expanded.push(input);
      continue;
    }
    let names: string[];
    try {
      names = fs.filesIn(input);
    } catch (err) {
      return {
        ok: false,
        input,
        reason: `cannot read the folder (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      };
    }
    const files = audioFilesOf(names)
      .map((n) => joinPath(input, n))
      .filter((f) => !fs.same(f, output));
    if (files.length === 0)
      return {
        ok: false,
        input,
        reason: `a folder with no audio files (${AUDIO_EXTENSIONS.slice(0, 8).join(', ')}, ...)`,
      };
    expanded.push(...files);
  }
  return { ok: true, inputs: expanded };
}

const joinPath = (folder: string, name: string) =>
  /[\\/]$/.test(folder) ? folder + name : `${folder}/${name}`;
