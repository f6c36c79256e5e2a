// The widget: a view over the headless store (store/widget-store.ts). It loads the session's
// items, lets them be ordered and removed, asks for the merge and follows it to its end.
import { useEffect, useState } from 'react';
import { createWidgetStore, type WidgetStore, type WidgetStoreDeps } from '../store/widget-store.js';
import { ListView } from './ListView.js';
import type { OutputFormat } from '../../shared/output-formats.js';
import { ProgressView } from './ProgressView.js';
import type { ListenHandler } from './RowPlayer.js';
import { useWidgetState } from './use-widget.js';

export interface WidgetConfig {
  appid: string;
  sid: string;
  port: string;
  makeLabel: string;
  title: string;
  /** The formats this host offers (data-formats); with one, the merge carries no options. */
  formats?: OutputFormat[];
  /** The host offers the sound options (data-sound="on"); more than one format offers them too. */
  sound?: boolean;
}

export interface AudioMergeToolProps extends WidgetConfig {
  onListen?: ListenHandler;
  listenInterval?: number;
  /** The store to show; one is made from the config (and `storeDeps`) when none is given. */
  store?: WidgetStore;
  storeDeps?: WidgetStoreDeps;
  /** The server keeps the person's choices and the session's cover (the mounted widget on a page). */
  keepChoices?: boolean;
}

export function AudioMergeTool({
  appid,
  sid,
  port,
  makeLabel,
  title,
  formats = ['mp3'],
  sound = false,
  onListen,
  listenInterval,
  store: given,
  storeDeps,
  keepChoices = false,
}: AudioMergeToolProps) {
  const [store] = useState(() => given ?? createWidgetStore({ appid, sid, port }, storeDeps));
  const state = useWidgetState(store);
  const { actions } = store;

  useEffect(() => {
    void actions.start();
    return () => actions.dispose();
  }, [actions]);

  if (state.showSpinner)
    return <ProgressView state={state} onCancel={() => void actions.cancel()} onReload={actions.reload} />;
  return (
    <ListView
      state={state}
      actions={actions}
      title={title}
      makeLabel={makeLabel}
      formats={formats}
      sound={sound}
      keepFor={keepChoices ? appid : undefined}
      onListen={onListen}
      listenInterval={listenInterval}
    />
  );
}
