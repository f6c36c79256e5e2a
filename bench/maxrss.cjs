// Preloaded (--require) into a measured Node process: writes its peak RSS (bytes) where the bench
// asks. CommonJS so that preloading it does not set up Node's ES module loader (~20 ms) in a
// command line that otherwise never does.
'use strict';
const { writeFileSync } = require('node:fs');

const out = process.env.AUDIO_MERGE_BENCH_RSS_FILE;
if (out) {
  process.on('exit', () => {
    writeFileSync(out, String(process.resourceUsage().maxRSS * 1024));
  });
}
