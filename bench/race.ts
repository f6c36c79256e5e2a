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

/** A race of two and its figure: the first contender's time against the second's. */
export interface Duel extends Race {
  figure: Omit<Figure, 'ours' | 'peer'>;
}

export async function duel(progress: Progress, d: Duel): Promise<Figure> {
  const [ours, peer] = d.contenders;
  const [f] = await race(progress, d, { ...d.figure, ours: ours.label, peer: peer.label });
  return f;
}

/** The duels one after another, their figures in order. */
export async function duels(progress: Progress, all: Duel[]): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const d of all) figures.push(await duel(progress, d));
  return figures;
}
