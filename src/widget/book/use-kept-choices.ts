// The person's choices brought back (choices): on a reload, and whenever the make area comes back
// after a merge or a cancel. The last ones are also kept here, so the area comes back as it was
// without waiting for the server. Sending them is the store's (kept-choices.ts), so a merge or
// the page being left never drops one still waiting.
import { useEffect, useState } from 'react';
import { fetchChoices } from '../api/http.js';

const lastKept = new Map<string, Record<string, unknown>>();

export interface KeptChoices {
  /** The choices as last kept; undefined until the server has answered on a fresh page. */
  saved: Record<string, unknown> | undefined;
  /** Keep these: handed to `send` when they differ from the last kept. */
  keep: (choices: Record<string, unknown>) => void;
}

export function useKeptChoices(
  appid: string | undefined,
  send: (choices: Record<string, unknown>) => void = () => undefined,
): KeptChoices {
  const [saved, setSaved] = useState(() => (appid === undefined ? {} : lastKept.get(appid)));
  useEffect(() => {
    if (appid === undefined || lastKept.has(appid)) return;
    let live = true;
    fetchChoices(appid)
      .catch(() => ({}))
      .then((c) => {
        if (!live) return;
        if (!lastKept.has(appid)) lastKept.set(appid, c);
        setSaved(lastKept.get(appid));
      });
    return () => {
      live = false;
    };
  }, [appid]);

  function keep(choices: Record<string, unknown>): void {
    if (appid === undefined) return;
    const before = lastKept.get(appid);
    if (before && JSON.stringify(before) === JSON.stringify(choices)) return;
    lastKept.set(appid, choices);
    send(choices);
  }
  return { saved, keep };
}
