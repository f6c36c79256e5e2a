import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, tools } from '../../../test/support/audio-fixtures.js';
import { childrenNamed } from '../../../test/support/processes.js';
import { until } from '../../../test/support/until.js';
import { decodeTimeoutMs, probeFile } from '../../engine/index.js';
import type { AppConfig } from '../config.js';
import { probeUpload, type UploadStoreDeps } from './upload-store.js';

const exec = promisify(execFile);
let media: { dir: string; cleanup: () => Promise<void> };
let flac: string;

beforeAll(async () => {
  media = await tempDir('upload-store-');
  flac = path.join(media.dir, 'silence.flac');
  await exec(tools.ffmpeg, [
    ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=96000:cl=7.1:d=600'],
    ...['-c:a', 'flac', flac],
  ]);
});
afterAll(() => media.cleanup());

/** What probing touches of the upload path: the probe, the tools and the merge limit. */
const deps = (measureTimeoutMs?: number) =>
  ({
    probe: probeFile,
    tools,
    config: { maxMergeHours: 24 } as AppConfig,
    measureTimeoutMs,
  }) as UploadStoreDeps;

describe('the measuring decode of an upload', () => {
  it('is given up past its time limit: the file is refused by name, and its ffmpeg ended', async () => {
    const refused = await probeUpload(deps(1), flac, 'silence.flac');
    expect(refused).toMatchObject({ code: 'not-audio', filename: 'silence.flac' });
    expect((refused as { error: string }).error).toMatch(/^silence\.flac .*not stored$/);
    await until(() => childrenNamed('ffmpeg').length === 0, { timeoutMs: 5000, what: 'ffmpeg ending' });
  });

  it('measures the file whole within the default limit', async () => {
    const probed = await probeUpload(deps(), flac, 'silence.flac');
    expect(probed).toMatchObject({ probe: { durationSeconds: 600 } });
  });

  it('may take as long as the most audio of its rate and channels could take to decode', () => {
    const day = 24 * 3600 + 1;
    // The floor stands for ffmpeg's start; beyond it the limit grows with the samples.
    const floor = decodeTimeoutMs(0, 44100, 2);
    expect(decodeTimeoutMs(day, 192000, 8) - floor).toBeCloseTo(
      ((192000 * 8) / (44100 * 2)) * (decodeTimeoutMs(day, 44100, 2) - floor),
      -3,
    );
  });
});
