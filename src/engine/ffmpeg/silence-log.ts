// Reads silencedetect's log lines as they stream out of ffmpeg's stderr.

export interface Silence {
  start: number;
  end: number;
}

const START = /silence_start: (-?\d+(?:\.\d+)?(?:e-?\d+)?)/;
const END = /silence_end: (-?\d+(?:\.\d+)?(?:e-?\d+)?)/;

export class SilenceLog {
  private readonly found: Silence[] = [];
  private open: number | null = null;
  private partial = '';

  /** Feed a chunk of stderr (lines may be split across chunks). */
  push(chunk: string): void {
    const text = this.partial + chunk;
    const lines = text.split('\n');
    this.partial = lines.pop() ?? '';
    for (const line of lines) this.line(line);
  }

  /** The stretches found; one still open at the end of the stream ends at `endSeconds`. */
  finish(endSeconds: number): Silence[] {
    if (this.partial) this.line(this.partial);
    this.partial = '';
    if (this.open !== null) {
      this.found.push({ start: this.open, end: Math.max(this.open, endSeconds) });
      this.open = null;
    }
    return this.found;
  }

  private line(line: string): void {
    if (!line.includes('silencedetect')) return;
    const s = START.exec(line);
    if (s) this.open = Math.max(0, Number(s[1]));
    const e = END.exec(line);
    if (e && this.open !== null) {
      this.found.push({ start: this.open, end: Number(e[1]) });
      this.open = null;
    }
  }
}
