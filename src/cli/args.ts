// Pure: the command line's arguments, parsed or refused with a usage message.

export interface CliArgs {
  output: string;
  inputs: string[];
  json: boolean;
  quiet: boolean;
  title?: string;
}

export type ParsedArgs = { kind: 'run'; args: CliArgs } | { kind: 'help' } | { kind: 'usage'; message: string };

export const USAGE = 'usage: audio-merge -o OUT.mp3 IN1 IN2 ... [--json] [--title T] [--quiet] [--help]';

export const HELP = `${USAGE}

Joins the inputs, in the order given, into one MP3 at OUT.

Inputs may be any audio ffmpeg decodes (mp3, wav, flac, ogg/vorbis, opus, m4a/aac, ...), with any
sample rate and channel count, mixed freely. The output takes the sample rate and channel count
shared by most MP3 inputs (44.1 kHz stereo when there is none); MP3 inputs that match are joined
frame by frame without re-encoding, the others are re-encoded with LAME to match.

Options:
  -o, --output OUT   where to write the MP3 (also --output=OUT); must not be one of the inputs
  --json             print one JSON object on stdout when done:
                     {"output","durationSeconds","inputs","transcoded","bytes","sampleRate","channels"}
                     ("transcoded" lists the 0-based indexes of the re-encoded inputs)
  --title T          title tag of the output (default: the first input's title, else its file name)
  -q, --quiet        no progress bar (it is only drawn when stderr is a terminal anyway)
  -h, --help         this text
  --                 everything after it is an input, even if it starts with "-"

Exit status:
  0    success
  1    an input cannot be used (stderr names it and the reason), or the merge failed
       (ffmpeg unusable, disk full); OUT is never left behind half-written
  2    usage error
  130  cancelled by SIGINT (143 for SIGTERM, 129 for SIGHUP); nothing is left behind

ffmpeg/ffprobe: FFMPEG_PATH and FFPROBE_PATH if set, else those on PATH, else the ones the npm
packages @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe ship.
`;

export function parseArgs(argv: readonly string[]): ParsedArgs {
  let output: string | undefined;
  let title: string | undefined;
  let json = false;
  let quiet = false;
  const inputs: string[] = [];
  let options = true;
  const usage = (message: string): ParsedArgs => ({ kind: 'usage', message });

  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!options || a === '-' || !a.startsWith('-')) {
      inputs.push(a);
      continue;
    }
    if (a === '--') {
      options = false;
      continue;
    }
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    const name = eq >= 0 ? a.slice(0, eq) : a;
    const inline = eq >= 0 ? a.slice(eq + 1) : undefined;
    const value = (): string | undefined => {
      if (inline !== undefined) return inline;
      if (i + 1 >= argv.length) return undefined;
      return argv[++i];
    };
    switch (name) {
      case '-h':
      case '--help':
        return { kind: 'help' };
      case '--json':
        json = true;
        break;
      case '-q':
      case '--quiet':
        quiet = true;
        break;
      case '-o':
      case '--output': {
        const v = value();
        if (!v) return usage(`${name} needs a file name`);
        if (output !== undefined) return usage('only one output (-o) may be given');
        output = v;
        break;
      }
      case '--title': {
        const v = value();
        if (v === undefined) return usage('--title needs a value');
        title = v;
        break;
      }
      default:
        return usage(`unknown option ${a}`);
    }
  }
  if (output === undefined) return usage('no output given (-o OUT.mp3)');
  if (inputs.length === 0) return usage('no inputs given');
  return { kind: 'run', args: { output, inputs, json, quiet, title } };
}
