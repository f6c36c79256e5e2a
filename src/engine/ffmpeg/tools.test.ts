import { describe, expect, it } from 'vitest';
import { locateTools, resolveToolPaths } from './tools.js';

describe('finding ffmpeg and ffprobe', () => {
  it('prefers FFMPEG_PATH and FFPROBE_PATH when both are set', () => {
    const t = resolveToolPaths({ FFMPEG_PATH: '/opt/ff/ffmpeg', FFPROBE_PATH: '/opt/ff/ffprobe', PATH: '' });
    expect(t).toEqual({ ffmpeg: '/opt/ff/ffmpeg', ffprobe: '/opt/ff/ffprobe', source: 'env' });
  });

  it('refuses only one of the two variables', () => {
    expect(() => resolveToolPaths({ FFMPEG_PATH: '/opt/ff/ffmpeg' })).toThrow(
      /both FFMPEG_PATH and FFPROBE_PATH/,
    );
  });

  it('falls back to the binaries the npm packages ship when PATH has none', async () => {
    const t = resolveToolPaths({ PATH: '/nonexistent' });
    expect(t.source).toBe('npm');
    expect(t.ffmpeg).toMatch(/ffmpeg$/);
    const checked = await locateTools({ PATH: '/nonexistent' });
    expect(checked.ffmpegVersion).not.toBe('unknown');
  });

  it('says clearly when the configured ffmpeg cannot run', async () => {
    await expect(
      locateTools({ FFMPEG_PATH: '/nonexistent/ffmpeg', FFPROBE_PATH: '/nonexistent/ffprobe' }),
    ).rejects.toThrow(/\/nonexistent\/ffmpeg/);
  });
});

describe('tools found on first use (the command line)', () => {
  it('looks nothing up until a binary is asked for', async () => {
    const { lazyToolPaths } = await import('./tools.js');
    const tools = lazyToolPaths({ FFMPEG_PATH: '/opt/ff/ffmpeg' });
    expect(tools.ffmpegVersion).toBe('unchecked');
    // Only now does the half-set environment get noticed.
    expect(() => tools.ffmpeg).toThrow(/both FFMPEG_PATH and FFPROBE_PATH/);
  });

  it('resolves the same paths as the eager lookup', async () => {
    const { lazyToolPaths } = await import('./tools.js');
    const env = { FFMPEG_PATH: '/opt/ff/ffmpeg', FFPROBE_PATH: '/opt/ff/ffprobe' };
    const tools = lazyToolPaths(env);
    expect([tools.ffmpeg, tools.ffprobe, tools.source]).toEqual(['/opt/ff/ffmpeg', '/opt/ff/ffprobe', 'env']);
  });
});
