// The one reader of JSON request bodies. A key that names a property every object inherits
// (`__proto__`, `constructor`, `hasOwnProperty`, ...) is refused, wherever it stands in the body,
// with a 400 naming it: code that looks such a key up on a plain object finds the inherited
// function (or, for `__proto__`, the prototype) instead of the sent value.
import { AppError } from './errors.js';

/** Keys no request body may hold: Object.prototype's own names, and `prototype`. */
const INHERITED_KEYS: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  'prototype',
]);

/** The first key of `value` (at any depth) that names an inherited property; undefined when none. */
export function inheritedKeyIn(value: unknown): string | undefined {
  // A stack, not recursion: a 1 MB body can nest deeper than the call stack goes.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      pending.push(...v);
      continue;
    }
    for (const key of Object.keys(v)) {
      if (INHERITED_KEYS.has(key)) return key;
      pending.push((v as Record<string, unknown>)[key]);
    }
  }
  return undefined;
}

/**
 * The body's value, or an AppError (400) saying what is wrong with it: empty, not JSON, or holding
 * an inherited key (named, as `field`). JSON.parse makes `__proto__` an own key like any other.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw new AppError('badRequest', 'The request body is empty; it must be JSON');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('badRequest', 'The request body is not valid JSON');
  }
  const key = inheritedKeyIn(value);
  if (key !== undefined)
    throw new AppError('badRequest', `The key "${key}" is not allowed in a request`, { field: key });
  return value;
}
