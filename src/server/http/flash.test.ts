import { describe, expect, it } from 'vitest';
import { createFlash } from './flash.js';

describe('flash messages', () => {
  it('are shown once, per session', () => {
    const flash = createFlash();
    flash.set('a', ['x.mp3 is not usable audio']);
    expect(flash.take('b')).toEqual([]);
    expect(flash.take('a')).toEqual(['x.mp3 is not usable audio']);
    expect(flash.take('a')).toEqual([]);
  });

  it('keep only the newest sessions when full', () => {
    const flash = createFlash(2);
    flash.set('a', ['1']);
    flash.set('b', ['2']);
    flash.set('c', ['3']);
    expect(flash.take('a')).toEqual([]);
    expect(flash.take('b')).toEqual(['2']);
    expect(flash.take('c')).toEqual(['3']);
  });
});
