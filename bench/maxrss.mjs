// Preloaded into a measured Node process: writes its peak RSS (bytes) where the bench asks.
import { writeFileSync } from 'node:fs';

const out = process.env.AUDIO_MERGE_BENCH_RSS_FILE;
if (out) {
  process.on('exit', () => {
    writeFileSync(out, String(process.resourceUsage().maxRSS * 1024));
  });
}
