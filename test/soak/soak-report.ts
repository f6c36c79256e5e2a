// The soak's verdict, pure: what each simulated merge came to, summed into the figures an operator
// reads (merges asked, succeeded, failed by code, lost; latencies; peak memory; files left), and
// the exit code: non-zero when a merge was lost or a file was left behind.

/** How one merge a person asked for ended, as the person saw it. */
export type MergeFate =
  /** Answered, or seen ending on the status route or channel, as a success. */
  | { kind: 'succeeded'; mergeMs: number; engineSeconds: number | null }
  /** Ended in failure, with the code the server gave (or the person's: a dead connection). */
  | { kind: 'failed'; code: string }
  /** Asked, and never answered nor seen ending by the deadline. */
  | { kind: 'lost'; why: string };

export interface SoakFigures {
  people: number;
  minutes: number;
  /** Wall time from the first person to the last merge ended, s. */
  elapsedSeconds: number;
  merges: MergeFate[];
  /** Each getDataJson's time, ms. */
  getDataJsonMs: number[];
  /** Peak resident memory of each process (its restarts counted as one), bytes. */
  peakRss: Record<string, number>;
  /** Files that no row names, or scratch left, after the run: a description each. */
  leftovers: string[];
  /** The faults made, in order, with when (s from the start). */
  faults: Array<{ at: number; what: string }>;
  /** People who never got as far as asking for a merge, and why (no merge asked, none lost). */
  stopped: string[];
}

export interface SoakReport {
  asked: number;
  succeeded: number;
  failed: number;
  failedByCode: Record<string, number>;
  lost: number;
  lostWhy: string[];
  mergesPerMinute: number;
  getDataJson: { p50: number; p99: number };
  /** mergemp3's time less the engine's, ms: what the server adds around a merge. */
  mergeOverhead: { p50: number; p99: number; measured: number };
  peakRss: Record<string, number>;
  leftovers: string[];
  faults: SoakFigures['faults'];
  stopped: string[];
}

/** The nearest-rank percentile (p in 0..100) of `values`; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function summarize(f: SoakFigures): SoakReport {
  const ok = f.merges.filter((m): m is Extract<MergeFate, { kind: 'succeeded' }> => m.kind === 'succeeded');
  const failed = f.merges.filter((m): m is Extract<MergeFate, { kind: 'failed' }> => m.kind === 'failed');
  const lost = f.merges.filter((m): m is Extract<MergeFate, { kind: 'lost' }> => m.kind === 'lost');
  const failedByCode: Record<string, number> = {};
  for (const m of failed) failedByCode[m.code] = (failedByCode[m.code] ?? 0) + 1;
  const overhead = ok.flatMap((m) =>
    m.engineSeconds === null || !Number.isFinite(m.mergeMs)
      ? []
      : [Math.max(0, m.mergeMs - m.engineSeconds * 1000)],
  );
  return {
    asked: f.merges.length,
    succeeded: ok.length,
    failed: failed.length,
    failedByCode,
    lost: lost.length,
    lostWhy: lost.map((m) => m.why),
    mergesPerMinute: f.elapsedSeconds > 0 ? (ok.length + failed.length) / (f.elapsedSeconds / 60) : 0,
    getDataJson: { p50: percentile(f.getDataJsonMs, 50), p99: percentile(f.getDataJsonMs, 99) },
    mergeOverhead: {
      p50: percentile(overhead, 50),
      p99: percentile(overhead, 99),
      measured: overhead.length,
    },
    peakRss: f.peakRss,
    leftovers: f.leftovers,
    faults: f.faults,
    stopped: f.stopped,
  };
}

/** Non-zero when a merge was lost or a file was left behind; a failed merge is not (it was answered). */
export const exitCodeOf = (r: SoakReport): number => (r.lost > 0 || r.leftovers.length > 0 ? 1 : 0);

const msText = (ms: number) => (Number.isNaN(ms) ? 'n/a' : `${Math.round(ms)} ms`);
const mib = (bytes: number) => `${Math.round(bytes / 1048576)} MiB`;

export function formatReport(r: SoakReport, f: Pick<SoakFigures, 'people' | 'minutes'>): string {
  const codes = Object.entries(r.failedByCode)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  const lines = [
    `soak: ${f.people} people, ${f.minutes} min`,
    `faults: ${r.faults.map((x) => `${x.what} at ${Math.round(x.at)} s`).join('; ') || 'none'}`,
    `merges asked ${r.asked}, succeeded ${r.succeeded}, failed ${r.failed}${codes ? ` (${codes})` : ''}, lost ${r.lost}`,
    `merges per minute: ${r.mergesPerMinute.toFixed(1)}`,
    ...(r.stopped.length > 0 ? [`people stopped before merging: ${r.stopped.length}`] : []),
    ...r.stopped.slice(0, 10).map((w) => `  stopped: ${w}`),
    `getDataJson: p50 ${msText(r.getDataJson.p50)}, p99 ${msText(r.getDataJson.p99)}`,
    `mergemp3 less the engine: p50 ${msText(r.mergeOverhead.p50)}, p99 ${msText(r.mergeOverhead.p99)} (${r.mergeOverhead.measured} merges)`,
    `peak RSS: ${
      Object.entries(r.peakRss)
        .map(([name, bytes]) => `${name} ${mib(bytes)}`)
        .join(', ') || 'n/a'
    }`,
    `files left behind: ${r.leftovers.length}`,
    ...r.leftovers.slice(0, 20).map((l) => `  left: ${l}`),
    ...r.lostWhy.slice(0, 20).map((w) => `  lost: ${w}`),
    exitCodeOf(r) === 0 ? 'soak: passed' : 'soak: FAILED (a lost merge or a file left behind)',
  ];
  return lines.join('\n');
}
