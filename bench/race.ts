// A group of figures (one BENCH_ONLY name), and its races: contenders timed in one alternation,
// the figures read from it by the contenders' labels.
import type { Corpus } from './corpus.js';
import { alternate, type Command } from './measure.js';
import type { Figure } from './report.js';

export type Progress = (m: string) => void;

/** A group's figures on the corpus, made in the scratch folder `work`, `rounds` rounds a figure. */
export type FigureGroup = (c: Corpus, work: string, rounds: number, progress: Progress) => Promise<Figure[]>;

export interface Race {
  /** The progress line while it runs. */
  step: string;
  contenders: Command[];
  rounds: number;
  /** False for runs of minutes on inputs other figures have read: no untimed warm-up. */
  warmUp?: boolean;
}

/** A figure whose two sides are named by their contenders' labels. */
export type RaceFigure = Omit<Figure, 'ours' | 'peer'> & { ours: string; peer: string };

/** Run the race; each figure's times are its contenders' medians, min and max. */
export async function race(progress: Progress, r: Race, ...figures: RaceFigure[]): Promise<Figure[]> {
  progress(r.step);
  const times = await alternate(r.contenders, r.rounds, progress, r.warmUp);
  const time = (label: string) => {
    const t = times.get(label);
    if (!t) throw new Error(`internal: no contender labelled ${label}`);
    return t.time;
  };
  return figures.map((f) => ({ ...f, ours: time(f.ours), peer: time(f.peer) }));
}
