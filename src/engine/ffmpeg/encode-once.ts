// The single encode of the Opus, Vorbis, FLAC and WAV outputs: every part's raw PCM, in order,
// read as one stream (ffmpeg's concat protocol joins the bytes), tags from an ffmetadata file.
import { OutputError } from '../errors.js';
import { opusKbps, vorbisQuality, type OutputFormat } from '../plan/formats.js';
import type { Tools } from './tools.js';
import { fileArg, lastLine, machineFault, spawnRunner, type Runner, QUIET_WRITE } from './runner.js';
import { assertToolWorks } from './tool-check.js';
import type { PcmTarget } from './transcode.js';

export interface EncodeOnceJob {
  pcmFiles: string[];
  pcm: PcmTarget;
  format: Extract<OutputFormat, 'opus' | 'ogg' | 'flac' | 'wav'>;
  bitRateKbps?: number;
  bitDepth?: 16 | 24;
  metadataFile: string;
  /** FLAC only: an image file written as the PICTURE block. */
  coverFile?: string;
  output: string;
  totalSeconds: number;
  tools: Tools;
  runner?: Runner;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

function codecArgs(job: EncodeOnceJob): string[] {
  switch (job.format) {
    case 'opus':
      return ['-c:a', 'libopus', '-b:a', `${opusKbps(job.bitRateKbps!, job.pcm.channels)}k`, '-f', 'opus'];
    case 'ogg':
      // A quality level: libvorbis refuses most bit rates away from 44.1 and 48 kHz (plan/formats.ts).
      return [
        '-c:a',
        'libvorbis',
        '-q:a',
        String(vorbisQuality(job.bitRateKbps!, job.pcm.channels)),
        '-f',
        'ogg',
      ];
    case 'flac':
      return ['-c:a', 'flac', '-sample_fmt', job.bitDepth === 24 ? 's32' : 's16', '-f', 'flac'];
    case 'wav':
      // RIFF sizes are 32 bits: a WAV past 4 GiB (about 6.7 hours of 16-bit stereo at 44.1 kHz)
      // is written as RF64, which players read, instead of a header whose sizes wrap.
      return ['-c:a', job.bitDepth === 24 ? 'pcm_s24le' : 'pcm_s16le', '-f', 'wav', '-rf64', 'auto'];
  }
}

export function encodeOnceArgs(job: EncodeOnceJob): string[] {
  const cover = job.format === 'flac' && job.coverFile;
  return [
    ...QUIET_WRITE,
    '-f',
    job.pcm.sampleFormat,
    '-ar',
    String(job.pcm.sampleRate),
    '-ac',
    String(job.pcm.channels),
    '-i',
    `concat:${job.pcmFiles.map(fileArg).join('|')}`,
    '-f',
    'ffmetadata',
    '-i',
    fileArg(job.metadataFile),
    ...(cover ? ['-i', fileArg(job.coverFile!)] : []),
    '-map',
    '0:a',
    '-map_metadata',
    '1',
    '-map_chapters',
    '-1',
    ...(cover ? ['-map', '2:v', '-c:v', 'copy', '-disposition:v', 'attached_pic'] : []),
    ...codecArgs(job),
    '-progress',
    'pipe:1',
    '-nostats',
    fileArg(job.output),
  ];
}

/** Encode; a failure here is the tool's or the disk's, never an input's. */
export async function encodeOnce(job: EncodeOnceJob): Promise<void> {
  if (job.pcmFiles.some((f) => f.includes('|')))
    throw new Error(`internal: a temporary path holds '|' (${job.pcmFiles[0]})`);
  const runner = job.runner ?? spawnRunner;
  const result = await runner({
    bin: job.tools.ffmpeg,
    args: encodeOnceArgs(job),
    signal: job.signal,
    onProgress: (p) =>
      job.onProgress?.(p.end ? 1 : Math.min(1, p.outTimeSeconds / Math.max(job.totalSeconds, 1e-9))),
  });
  if (result.code === 0) return;
  if (!result.signal) await assertToolWorks(runner, job.tools.ffmpeg, 'ffmpeg');
  const why = result.signal ? `ffmpeg was killed by ${result.signal}` : lastLine(result.stderrTail);
  throw new OutputError(
    `cannot write the ${job.format} output: ${why}`,
    machineFault(why) ?? 'output-unwritable',
  );
}
