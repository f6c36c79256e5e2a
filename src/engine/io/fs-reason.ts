// Pure: a file-system error as the few words a person reads after a file name on the command line.

const WORDS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EISDIR: 'is a folder',
  ENOTDIR: 'part of the path is not a folder',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files',
  EIO: 'input/output error',
};

/** The file system's codes for a full disk (or a spent quota): the machine's fault, not the file's. */
export const DISK_FULL_ERRNOS: readonly string[] = ['ENOSPC', 'EDQUOT'];

/** True for the errors of a full disk (or a spent quota). */
export function isDiskFull(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && DISK_FULL_ERRNOS.includes(code);
}

/** "no such file or folder" for ENOENT, and so on; Node's own message for codes not listed. */
export function fsReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException | undefined;
  const code = e?.code;
  if (code && WORDS[code]) return WORDS[code];
  if (code) return code;
  return e instanceof Error ? e.message : String(err);
}
