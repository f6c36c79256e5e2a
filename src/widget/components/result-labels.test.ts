// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen } from '@testing-library/dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { enableChapterSeek, labelResults } from './result-labels.js';

// The markup the host page gives each merged result (src/server/http/host-page.ts).
const result = (id: string, sources: string[], when: string) => `<article class="audio-merge-result">
  <audio controls preload="metadata" src="/results/SID/${id}.mp3"></audio>
  <p class="audio-merge-result-meta">
    <a class="audio-merge-download" href="/results/SID/${id}.mp3?download=1" download>Download</a>
    <span class="audio-merge-duration">0:12</span><span class="audio-merge-size">0.2 MB</span>
    <time datetime="2026-11-22T01:22:00.000Z">${when}</time>
  </p>
  <ol class="audio-merge-sources">${sources.map((s) => `<li>${s}</li>`).join('')}</ol>
</article>`;

afterEach(() => {
  document.body.innerHTML = '';
});

describe('merged results on the host page', () => {
  it('every player and download link has a name that tells the results apart', () => {
    document.body.innerHTML = `<section class="audio-merge-results">${result('r2', ['b.mp3', 'a.wav', 'c.ogg'], '2026-11-22 01:22 UTC')}${result('r1', ['only.wav'], '2026-11-21 09:05 UTC')}</section>`;
    labelResults(document);
    const players = Array.from(document.querySelectorAll('audio'));
    expect(players.map((a) => a.getAttribute('aria-label'))).toEqual([
      'Play merged MP3 of b.mp3 and 2 more, 2026-11-22 01:22 UTC',
      'Play merged MP3 of only.wav, 2026-11-21 09:05 UTC',
    ]);
    expect(
      screen.getByRole('link', { name: 'Download merged MP3 of b.mp3 and 2 more, 2026-11-22 01:22 UTC' }),
    ).toHaveAttribute('href', '/results/SID/r2.mp3?download=1');
    expect(
      screen.getByRole('link', { name: 'Download merged MP3 of only.wav, 2026-11-21 09:05 UTC' }),
    ).toHaveAttribute('href', '/results/SID/r1.mp3?download=1');
  });

  it('a name the page already gives is kept', () => {
    document.body.innerHTML = result('r1', ['x.wav'], 'now').replace(
      '<audio ',
      '<audio aria-label="Episode 4" ',
    );
    labelResults(document);
    expect(document.querySelector('audio')).toHaveAttribute('aria-label', 'Episode 4');
  });

  it("seeks a result's player to a chapter when the chapter is clicked, and plays", () => {
    document.body.innerHTML = `<article class="audio-merge-result" data-format="m4b"><audio></audio>
      <ol class="audio-merge-chapters"><li><button class="audio-merge-chapter" data-start="12.5">Two</button></li></ol></article>
      <article class="audio-merge-result"><audio></audio></article>`;
    const [first, second] = Array.from(document.querySelectorAll('audio'));
    const play = vi.fn(() => Promise.resolve());
    first.play = play;
    const off = enableChapterSeek(document);
    (document.querySelector('.audio-merge-chapter') as HTMLElement).click();
    expect(first.currentTime).toBe(12.5);
    expect(second.currentTime).toBe(0);
    expect(play).toHaveBeenCalledTimes(1);
    off();
  });
});
