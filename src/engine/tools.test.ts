import { describe, expect, it } from 'vitest';
import { locateTools, resolveToolPaths } from './tools.js';

describe('finding ffmpeg and ffprobe', () => {
  it('prefers FFMPEG_PATH and FFPROBE_PATH when both are set', () => {
    const t = resolveToolPaths({ FFMPEG_PATH: '/opt/ff/ffmpeg', FFPROBE_PATH: '/opt/ff/ffprobe', PATH: '' });
    expect(t).toEqual({ ffmpeg: '/opt/ff/ffmpeg', ffprobe: '/opt/ff/ffprobe', source: 'env' });
  });

  it('refuses only one of the two variables', () => {
    expect(() => resolveToolPaths({ FFMPEG_PATH: '/opt/ff/ffmpeg' })).toThrow(/both FFMPEG_PATH and FFPROBE_PATH/);
  });

  it('falls back to the binaries the npm packages ship when PATH has none', async () => {
    const t = resolveToolPaths({ PATH: '/nonexistent' });
    expect(t.source).toBe('npm');
    expect(t.ffmpeg).toMatch(/ffmpeg$/);
    const checked = await locateTools({ PATH: '/nonexistent' });
    expect(checked.ffmpegVersion).not.toBe('unknown');
  });

  it('says clearly when the configured ffmpeg cannot run', async () => {
    await expect(locateTools({ FFMPEG_PATH: '/nonexistent/ffmpeg', FFPROBE_PATH: '/nonexistent/ffprobe' })).rejects.toThrow(
      /\/nonexistent\/ffmpeg/,
    );
  });
});
