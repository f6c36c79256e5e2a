// The list view: the title, the hint, the rows (or why there are none), the undo lines, make.
import { useId, useMemo } from 'react';
import type { OutputFormat } from '../../shared/output-formats.js';
import type { WidgetState } from '../store/state.js';
import type { WidgetActions } from '../store/widget-store.js';
import { t } from '../i18n/locale.js';
import { AudioList } from './AudioList.js';
import { MakeArea } from './MakeArea.js';
import { InfoLine, RemovalNotices } from './RemovalNotices.js';
import type { ListenHandler } from './RowPlayer.js';

export interface ListViewProps {
  state: WidgetState;
  actions: WidgetActions;
  title: string;
  makeLabel: string;
  onListen?: ListenHandler;
  listenInterval?: number;
  /** The formats the host offers; with more than one, a choice sits beside make. */
  formats?: OutputFormat[];
  /** The host offers the sound options (data-sound="on"). */
  sound?: boolean;
  /** The page's appid, when the server keeps the person's choices and cover. */
  keepFor?: string;
}

function Placeholder({ state }: { state: WidgetState }) {
  if (state.load === 'failed') {
    return (
      <p className="audio-merge-empty audio-merge-load-failed" role="alert">
        {t().loadFailed(state.loadError ?? '')}
      </p>
    );
  }
  return <p className="audio-merge-empty">{state.load === 'loading' ? t().loading : t().empty}</p>;
}

export function ListView({
  state,
  actions,
  title,
  makeLabel,
  onListen,
  listenInterval,
  formats = ['mp3'],
  sound = false,
  keepFor,
}: ListViewProps) {
  const titleId = useId();
  const hintId = useId();
  const trim = useMemo(
    () => ({ onSpan: actions.setSpan, onReset: actions.resetSpan, fetchPeaks: actions.fetchPeaks }),
    [actions],
  );
  const rowTitle = useMemo(
    () => ({ onChange: actions.setChapterTitle, errors: state.titleErrors }),
    [actions, state.titleErrors],
  );
  if (state.phase === 'expired') {
    return (
      <div className="audio-merge-tool-view">
        <p className="audio-merge-title">{title}</p>
        <p className="audio-merge-empty audio-merge-expired" role="alert">
          {t().expired}
        </p>
        <button type="button" className="audio-merge-make" onClick={actions.reload}>
          {t().reload}
        </button>
      </div>
    );
  }
  const empty = state.items.length === 0;
  return (
    <div className="audio-merge-tool-view">
      <p className="audio-merge-title" id={titleId}>
        {title}
      </p>
      {/* Two columns where there is room: the rows at their own width, the choices and make beside
          them (below them on a narrow screen). */}
      <div className="audio-merge-columns">
        <div className="audio-merge-list-column">
          <InfoLine info={state.info} />
          {empty ? (
            <Placeholder state={state} />
          ) : (
            <>
              <p className="audio-merge-hint" id={hintId}>
                {t().hint}
              </p>
              <AudioList
                items={state.items}
                titleId={titleId}
                hintId={hintId}
                onReorder={actions.reorder}
                onRemove={actions.remove}
                trim={trim}
                title={rowTitle}
                onListen={onListen}
                listenInterval={listenInterval}
              />
            </>
          )}
          {state.phase === 'uploading' && <p className="audio-merge-uploading">{t().uploading}</p>}
          <RemovalNotices
            removals={state.removals}
            notice={state.notice}
            onUndo={actions.undo}
            onDismiss={actions.dismissNotice}
            onHold={actions.holdRemovals}
          />
        </div>
        <div className="audio-merge-side-column">
          <MakeArea
            items={state.items}
            makeLabel={makeLabel}
            formats={formats}
            sound={sound}
            disabled={empty}
            onMake={actions.make}
            keepFor={keepFor}
            onKeep={actions.keepChoices}
          />
        </div>
      </div>
    </div>
  );
}
