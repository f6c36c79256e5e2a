// A session's results never share a download name: the Store keeps it so (a unique constraint per
// session, and the next free "name (2).ext" when a name is taken), whichever process records them.

/** `name`, or "name (2).ext", "name (3).ext"... whichever is not in `taken`. */
export function uniqueDownloadName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; ; n++) if (!taken.has(`${stem} (${n})${ext}`)) return `${stem} (${n})${ext}`;
}
