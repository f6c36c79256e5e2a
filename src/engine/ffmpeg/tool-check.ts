// When ffmpeg/ffprobe fails on an input, make sure the input is to blame and not the tool:
// a broken or wrong binary must give a ToolError, not "not audio" for every file.
import { ToolError } from '../errors.js';
import { lastLine, type Runner } from './runner.js';

const checked = new Map<string, Promise<void>>();

/** Resolves when `bin -version` answers as `name` does; rejects with ToolError otherwise. */
export function assertToolWorks(runner: Runner, bin: string, name: 'ffmpeg' | 'ffprobe'): Promise<void> {
  const key = `${name}\0${bin}`;
  let p = checked.get(key);
  if (!p) {
    p = (async () => {
      const r = await runner({ bin, args: ['-hide_banner', '-version'] });
      if (r.code !== 0 || !r.stdout.startsWith(`${name} version`)) {
        const why =
          r.code !== 0
            ? `exit ${r.code ?? r.signal}: ${lastLine(r.stderrTail)}`
            : 'it does not answer as ' + name;
        throw new ToolError(
          `${bin} is not a working ${name} (${why}); set FFMPEG_PATH and FFPROBE_PATH to working binaries`,
        );
      }
    })();
    checked.set(key, p);
    // Only a success is remembered; a fixed binary is noticed on the next failure.
    p.catch(() => checked.delete(key));
  }
  return p;
}
