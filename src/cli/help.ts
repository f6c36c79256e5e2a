// The command line's usage line and --help text.
import { bitRateDefaultsText, OUTPUT_FORMATS } from '../engine/index.js';
import { AUDIO_EXTENSIONS } from './folders.js';
import { SOUND_HELP } from './sound-args.js';
import { CHAPTER_HELP } from './chapter-args.js';

export const USAGE = [
  'usage: audio-merge -o OUT IN1 IN2 ... [--format F] [--bitrate K]',
  '         [--no-chapters] [--chapter-titles tags|files] [--input-chapters keep|flatten] [--chapters FILE]',
  '         [--title T] [--artist A] [--album-artist A] [--album A] [--narrator N] [--genre G] [--year Y]',
  '         [--description D] [--comment C] [--cover IMAGE] [--channels 1|2] [--sample-rate HZ]',
  '         [--chapters-at files|silences|both] [--silence-min S] [--silence-db DB] [--chapter-min S]',
  '         [--chapter-max S] [--split chapters|SECONDS]',
  '         [--trim N=START-END]... [--loudness LUFS] [--gap S | --crossfade S] [--trim-silence] [--gapless]',
  '         [--no-clobber] [--json] [--quiet] [--help]',
].join('\n');

/** Each example as a person types it, then what it does; a test runs every one as written. */
export const EXAMPLES: readonly { command: string; does: string }[] = [
  {
    command: 'audio-merge -o book.m4b --cover cover.jpg --title "The Book" chapters/',
    does: 'every audio file in chapters/, in the order of their names, into one M4B audiobook\nwith a chapter per file and cover.jpg as its cover',
  },
  {
    command: 'audio-merge -o show.mp3 --trim 1=0:05- --trim 2=-0:20 --loudness -16 intro.mp3 talk.wav',
    does: 'intro.mp3 from 0:05 to its end, then the first 20 seconds of talk.wav, each brought to\n-16 LUFS',
  },
  {
    command: 'audio-merge -o both.flac --json one.flac two.flac > report.json',
    does: 'the report (length, chapters, sizes, what was re-encoded) as JSON in report.json',
  },
];

const examplesText = EXAMPLES.map((e) => `  ${e.command}\n${e.does.replace(/^/gm, '      ')}`).join('\n');

export const HELP = `${USAGE}

Joins the inputs, in the order given, into one file at OUT, in the format OUT's extension names
(${OUTPUT_FORMATS.join(', ')}) or --format gives, and says on stderr what it wrote.

Examples:
${examplesText}

Inputs may be any audio ffmpeg decodes (mp3, wav, flac, ogg/vorbis, opus, m4a/aac, ...), with any
sample rate and channel count, mixed freely. An input may be a folder: it stands for the audio
files directly in it, told by their extensions (${AUDIO_EXTENSIONS.slice(0, 7).join(', ')}, ...),
in natural order of their names (2 before 10); other files, hidden files, subfolders and OUT
itself are skipped. Nothing is re-encoded that can be copied:
  mp3        MP3 inputs of the output's rate and channels are joined frame by frame; the output
             takes the rate and channels most MP3 inputs share (44.1 kHz stereo when none)
  m4b, m4a   AAC (in MP4) inputs of the output's rate and channels are copied packet for packet;
             in both, each run of the other inputs is encoded as one stream, in parallel chunks
             (one per core) that join seamlessly, so the output lasts what the inputs do
  opus, ogg  every input is decoded and the whole encoded once (Opus at 48 kHz)
  flac, wav  every decoded sample is kept; bit depth is the highest of the inputs (16 or 24)

Options:
  -o, --output OUT        where to write (also --output=OUT); must not be one of the inputs
  -n, --no-clobber        if OUT exists (with --split, its first part), leave it and exit 1
                          without writing anything
  --format F              ${OUTPUT_FORMATS.join('|')}; wins over OUT's extension
  --bitrate K             kb/s of lossy encodes (8 to 320). Defaults, stereo (mono):
                          ${bitRateDefaultsText()};
                          an MP3 output first matches its copied MP3s' own rate
  --channels 1|2          the output's channels (default: what most inputs have)
  --sample-rate HZ        the output's rate, 8000 to 192000 (MP3 and AAC take their nearest rate;
                          Opus always plays at 48000)
  --no-chapters           write no chapters (by default one per input, starting where it starts)
  --input-chapters M      keep|flatten: an input that carries chapters of its own (MP4, ID3 CHAP,
                          Vorbis CHAPTERnnn) gives them, moved to where it starts (keep, the
                          default), or one chapter like any other input (flatten)
  --chapter-titles S      tags|files: each input's chapter title is its title tag, else its file
                          name (tags, the default); files: every input's file name
  --chapters FILE         the chapters, one a line: START TITLE, START in seconds (12.5) or
                          [h:]m:ss[.mmm] (0:00 Opening, 1:02:03.5 Part Two); empty lines and lines
                          starting with # are skipped; a line that cannot be read, or a start past
                          the output's end, is a usage error naming the line
  --title T, --artist A (the author), --album-artist A, --album A, --narrator N (written as the
  composer), --genre G, --year Y (the date), --description D (the comment where a format has no
                          description field), --comment C
                          the book's details, each in the format's own field; one line each but
                          the description. By default title, artist, album artist, album,
                          narrator, genre and year come from the first input that has them, and
                          the title is the album the inputs share, else the first input's title
                          (else its file name)
  --cover IMAGE           a JPEG or PNG of at most 10 MB and 4096 x 4096 pixels as the cover
                          (default: the first input's embedded picture, when within those limits)
  --trim N=START-END      keep only that span of input N (1-based; repeatable, once per input).
                          START and END are seconds (12.5) or [h:]m:ss[.mmm]; either may be left
                          out (2=5-, 3=-1:30). Exact to the sample: a copied MP3 (or AAC, when no
                          other sound option is on) stays copied but for a few frames at each cut.
                          Chapters, gaps and fades follow the cuts
  --json                  print one JSON object on stdout when done:
                          {"output","format","durationSeconds","inputs","transcoded",
                           "chapters":[{"title","start","end"}],"bytes","sampleRate","channels",
                           "tags":{the details written, by ffprobe's names},"cover":true|false}
                          ("transcoded" lists the 0-based indexes of the inputs that went through
                          a lossy encoder); with --loudness also "loudness":[{"input","measured",
                          "gainDb"}] ("limited": true where the peak ceiling held a gain back), and
                          "notes": the lines printed on stderr about shortened fades and limited
                          gains; with --trim "trims":[{"input","start","end"}] (0-based input,
                          seconds of that input kept)
  -q, --quiet             no progress bar (drawn only when stderr is a terminal: the share done
                          and, from the pace so far, the time left), and no closing line (without
                          --json or --quiet a job ends with one line on stderr: what it wrote, its
                          length, its size and its chapter count)
  -h, --help              this text
  --                      everything after it is an input, even if it starts with "-"

${SOUND_HELP}

${CHAPTER_HELP}

Chapters: MP3 as ID3v2.3 CTOC + CHAP frames, M4B/M4A as a QuickTime chapter track and a Nero chpl
box, Opus/Ogg/FLAC as CHAPTERnnn comments; WAV carries none. MP3 and M4B hold at most 255
chapters, Opus/Ogg/FLAC 999: with more inputs than that, consecutive inputs share a chapter
(evenly grouped, titled by the first of each group).

Exit status:
  0    success
  1    an input cannot be used (stderr names it and the reason), OUT exists with --no-clobber,
       or the merge failed (ffmpeg unusable, disk full); OUT is never left behind half-written
  2    usage error (unknown option, bad value, an output extension that names no format and
       no --format, a --trim naming no input or a span that does not fit its input or is empty, a
       cover beyond its limits, a chapters file that cannot be read)
  130  cancelled by SIGINT (143 for SIGTERM, 129 for SIGHUP); nothing is left behind

ffmpeg/ffprobe: FFMPEG_PATH and FFPROBE_PATH if set, else those on PATH, else the ones the npm
packages @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe ship.
`;
