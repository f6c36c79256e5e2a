// The usual way to match loudness with ffmpeg (the peer of the loudness figure): per input, a
// measuring pass of loudnorm and a second pass that applies it with the measured values and
// encodes with libmp3lame; then the parts are joined with the concat demuxer. One after another,
// as the scripts people share do it.
// usage: node loudnorm-two-pass.mjs FFMPEG TARGET_LUFS OUT IN...
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';

const [ffmpeg, target, out, ...inputs] = process.argv.slice(2);

function run(args) {
  const r = spawnSync(ffmpeg, ['-hide_banner', '-nostats', '-y', ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed: ${r.stderr.slice(-500)}`);
  return r.stderr;
}

const parts = [];
try {
  for (const [i, input] of inputs.entries()) {
    const log = run([
      '-i',
      input,
      '-af',
      `loudnorm=I=${target}:TP=-1:LRA=11:print_format=json`,
      '-f',
      'null',
      '-',
    ]);
    const m = JSON.parse(log.slice(log.lastIndexOf('{')));
    const second =
      `loudnorm=I=${target}:TP=-1:LRA=11:measured_I=${m.input_i}:measured_TP=${m.input_tp}:` +
      `measured_LRA=${m.input_lra}:measured_thresh=${m.input_thresh}:offset=${m.target_offset}:linear=true`;
    const part = `${out}.${i}.mp3`;
    run([
      '-v',
      'error',
      '-i',
      input,
      '-af',
      second,
      '-ar',
      '44100',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      part,
    ]);
    parts.push(part);
  }
  const list = `${out}.txt`;
  writeFileSync(list, parts.map((p) => `file '${p.replace(/'/g, "'\\''")}'`).join('\n'));
  run(['-v', 'error', '-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', out]);
  rmSync(list, { force: true });
} finally {
  for (const p of parts) rmSync(p, { force: true });
}
