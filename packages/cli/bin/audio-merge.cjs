#!/usr/bin/env node
// The command as the lean package installs it: the one bundled file beside this folder.
'use strict';
require('../dist/audio-merge-cli.cjs')
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
