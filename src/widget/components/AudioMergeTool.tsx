// The widget: loads the session's items, lets them be ordered, asks for the merge, shows progress.
import { useCallback, useEffect, useId, useReducer, useRef, useState } from 'react';
import type { OutputFormat } from '../../shared/output-formats.js';
import { statusChannel } from '../../shared/types.js';
import { fetchItems, requestMerge } from '../api/http.js';
import { AudioList } from './AudioList.js';
import { OutputChoice, type OutputChoiceValue } from './OutputChoice.js';
import { ProgressView } from './ProgressView.js';
import { subscribeStatus, type StatusSubscription } from '../api/realtime.js';
import type { ListenHandler } from './RowPlayer.js';
import { initialState, widgetReducer } from '../store/state.js';

export interface WidgetConfig {
  appid: string;
  sid: string;
  port: string;
  makeLabel: string;
  title: string;
  /** The formats this host offers (data-formats); with one, the merge carries no options. */
  formats?: OutputFormat[];
}

export interface AudioMergeToolProps extends WidgetConfig {
  onListen?: ListenHandler;
  listenInterval?: number;
  /** A new value loads the items again, keeping the order already chosen. */
  reloadToken?: number;
}

/** How long make waits for the status socket before asking for the merge anyway. */
const SUBSCRIBE_WAIT_MS = 2000;

export function AudioMergeTool({ appid, sid, port, makeLabel, title, formats = ['mp3'], onListen, listenInterval, reloadToken }: AudioMergeToolProps) {
  const [state, dispatch] = useReducer(widgetReducer, initialState);
  const [output, setOutput] = useState<OutputChoiceValue>({ format: formats[0], chapters: true });
  const choosing = formats.length > 1;
  const subscription = useRef<StatusSubscription | null>(null);
  const titleId = useId();

  useEffect(() => {
    let live = true;
    fetchItems(appid).then(
      (items) => live && dispatch({ type: 'loaded', items }),
      (error: unknown) => console.error('Error', error),
    );
    return () => {
      live = false;
    };
  }, [appid, reloadToken]);

  useEffect(
    () => () => {
      subscription.current?.close();
      subscription.current = null;
    },
    [],
  );

  const onReorder = useCallback((activeId: string, overId: string) => dispatch({ type: 'reordered', activeId, overId }), []);

  const onMake = async () => {
    const items = state.items;
    dispatch({ type: 'makePressed' });
    window.scrollTo(0, 0);
    const sub = subscribeStatus(port, statusChannel(appid, sid), (data) => dispatch({ type: 'status', data }));
    subscription.current = sub;
    // Give the subscription a moment so the first statuses are not missed; never wait forever.
    await Promise.race([sub.ready, new Promise((r) => setTimeout(r, SUBSCRIBE_WAIT_MS))]);
    try {
      const { success, answer } = await requestMerge(items, choosing ? { format: output.format, chapters: output.chapters } : undefined);
      if (success) window.location.reload();
      else console.error('Error', answer);
    } catch (error) {
      console.error('Error', error);
    }
  };

  if (state.showSpinner) return <ProgressView progress={state.progress} percent={state.percent} />;

  const empty = state.items.length === 0;
  const make = (
    <button type="button" className="audio-merge-make" disabled={empty} onClick={onMake}>
      {makeLabel}
    </button>
  );
  return (
    <div className="audio-merge-tool-view">
      <p className="audio-merge-title" id={titleId}>
        {title}
      </p>
      {empty ? (
        <p className="audio-merge-empty">Nothing to merge yet. Upload some audio files and they will appear here.</p>
      ) : (
        <AudioList items={state.items} titleId={titleId} onReorder={onReorder} onListen={onListen} listenInterval={listenInterval} />
      )}
      {choosing ? (
        <div className="audio-merge-actions">
          <OutputChoice formats={formats} value={output} onChange={setOutput} />
          {make}
        </div>
      ) : (
        make
      )}
    </div>
  );
}
