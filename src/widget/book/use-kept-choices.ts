// The person's choices kept on the server (saveChoices) and brought back (choices): on a reload,
// and whenever the make area comes back after a merge or a cancel. The last ones are also kept
// here, so the area comes back as it was without waiting for the server.
import { useEffect, useRef, useState } from 'react';
import { fetchChoices, saveChoices } from '../api/http.js';

const lastKept = new Map<string, Record<string, unknown>>();
const SAVE_DELAY_MS = 400;

export interface KeptChoices {
  /** The choices as last kept; undefined until the server has answered on a fresh page. */
  saved: Record<string, unknown> | undefined;
  /** Keep these (sent after a short pause; `now` sends at once, as before a merge). */
  keep: (choices: Record<string, unknown>, now?: boolean) => void;
}

export function useKeptChoices(appid: string | undefined): KeptChoices {
  const [saved, setSaved] = useState(() => (appid === undefined ? {} : lastKept.get(appid)));
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
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
  useEffect(() => () => clearTimeout(timer.current), []);

  function keep(choices: Record<string, unknown>, now = false): void {
    if (appid === undefined) return;
    const before = lastKept.get(appid);
    if (before && JSON.stringify(before) === JSON.stringify(choices)) return;
    lastKept.set(appid, choices);
    clearTimeout(timer.current);
    const send = () => void saveChoices(appid, choices).catch(() => undefined);
    if (now) send();
    else timer.current = setTimeout(send, SAVE_DELAY_MS);
  }
  return { saved, keep };
}
