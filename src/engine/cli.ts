// Placeholder until the engine issue lands the real command line.
export async function main(_argv: string[]): Promise<number> {
  process.stderr.write('audio-merge: not built yet\n');
  return 2;
}
