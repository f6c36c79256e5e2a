// Chapters as ffprobe reads them from a file, in seconds.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tools } from './audio-fixtures.js';

const exec = promisify(execFile);

export async function ffprobeChapters(
  file: string,
): Promise<{ title: string; start: number; end: number }[]> {
  const { stdout } = await exec(
    tools.ffprobe,
    ['-v', 'error', '-print_format', 'json', '-show_chapters', file],
    { maxBuffer: 64 << 20 },
  );
  const json = JSON.parse(stdout) as {
    chapters?: { start_time: string; end_time: string; tags?: { title?: string } }[];
  };
  return (json.chapters ?? []).map((c) => ({
    title: c.tags?.title ?? '',
    start: Number(c.start_time),
    end: Number(c.end_time),
  }));
}
