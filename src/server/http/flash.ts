// One-shot messages for the next page view of a session: what a plain form upload (no JS, answered
// with a redirect) refused and why. Kept in memory and bounded; losing them on restart is harmless.

export interface Flash {
  set(sid: string, messages: string[]): void;
  /** The session's messages, removed as they are read. */
  take(sid: string): string[];
}

export function createFlash(maxSessions = 1000): Flash {
  const bySid = new Map<string, string[]>();
  return {
    set(sid, messages) {
      bySid.delete(sid);
      if (messages.length === 0) return;
      bySid.set(sid, messages.slice(0, 50));
      // Maps keep insertion order: drop the oldest when full.
      while (bySid.size > maxSessions) bySid.delete(bySid.keys().next().value as string);
    },
    take(sid) {
      const messages = bySid.get(sid) ?? [];
      bySid.delete(sid);
      return messages;
    },
  };
}
