// Placeholder until the server issue lands: the only file that reads the environment.
console.error('audio-merge server: not built yet');
process.exitCode = 1;
