// Pure: ffprobe's container names mapped to the extension a file is stored and served as.

export interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
  /** Where the stream's first sample sits, in seconds (an Ogg stream whose granules do not start at 0). */
  start_time?: string;
  bit_rate?: string;
  bits_per_raw_sample?: string;
  bits_per_sample?: number;
  profile?: string;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
}

export interface FfprobeChapter {
  start_time?: string;
  end_time?: string;
  tags?: Record<string, string>;
}

export interface FfprobeJson {
  format?: { format_name?: string; duration?: string; bit_rate?: string; tags?: Record<string, string> };
  streams?: FfprobeStream[];
  chapters?: FfprobeChapter[];
}

const BY_FORMAT: Record<string, string> = {
  mp3: 'mp3',
  wav: 'wav',
  w64: 'w64',
  flac: 'flac',
  aac: 'aac',
  aiff: 'aiff',
  au: 'au',
  caf: 'caf',
  wv: 'wv',
  ape: 'ape',
  asf: 'wma',
  amr: 'amr',
  ac3: 'ac3',
  eac3: 'eac3',
  dts: 'dts',
  mp2: 'mp2',
  tta: 'tta',
  voc: 'voc',
  mpc: 'mpc',
  mpc8: 'mpc',
  mpeg: 'mpg',
  avi: 'avi',
};

/** e.g. ("ogg", "opus") -> "opus"; ("mov,mp4,m4a,3gp,3g2,mj2", "aac") -> "m4a". */
export function formatFromProbe(formatName: string, codec: string): string {
  const names = formatName.toLowerCase().split(',');
  const first = names[0] ?? '';
  if (first === 'ogg') return codec === 'opus' ? 'opus' : 'ogg';
  if (names.includes('mp4') || names.includes('m4a') || first === 'mov') return 'm4a';
  if (names.includes('webm') || first === 'matroska')
    return codec === 'opus' || codec === 'vorbis' ? 'webm' : 'mka';
  const known = BY_FORMAT[first];
  if (known) return known;
  // Unknown containers keep a safe, short name of their own.
  const safe = first.replace(/[^a-z0-9]/g, '');
  return safe.length > 0 && safe.length <= 8 ? safe : 'bin';
}
