import { describe, expect, it } from 'vitest';
import { clock, progressBar } from './progress-bar.js';

describe('the progress bar', () => {
  it('reads as a clock, rounded up', () => {
    expect(clock(0.2)).toBe('0:01');
    expect(clock(7)).toBe('0:07');
    expect(clock(725)).toBe('12:05');
    expect(clock(3723)).toBe('1:02:03');
  });

  it('follows the bar, which is redrawn in place', () => {
    expect(progressBar(50, 30)).toBe(`\r[${'#'.repeat(15)}${'.'.repeat(15)}]  50%  0:30 left\x1b[K`);
    expect(progressBar(0)).toBe(`\r[${'.'.repeat(30)}]   0%\x1b[K`);
  });

  it('says the stage and the file being worked on, before the time left', () => {
    const bar = progressBar(40, 125, { stage: 'encoding', file: 37, files: 500 });
    expect(bar).toContain('40%  encoding file 37 of 500  2:05 left');
    expect(progressBar(99, null, { stage: 'writing', file: 500, files: 500 })).toContain(
      '99%  writing\x1b[K',
    );
    expect(progressBar(10, null, { stage: 'reading', file: 1, files: 1 })).toContain('10%  reading\x1b[K');
  });
});
