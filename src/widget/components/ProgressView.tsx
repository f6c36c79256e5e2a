// The progress view (docs/reference/widget.md): a determinate bar, the status text and a spinner; a cancel
// button while the merge runs, and when it ends otherwise than in success, its message and a reload.
import { useEffect, useRef } from 'react';
import { stageLine, statusLine, type WidgetState } from '../store/state.js';
import { t } from '../i18n/locale.js';

export interface ProgressViewProps {
  state: Pick<WidgetState, 'phase' | 'progress' | 'percent' | 'message' | 'cancelling' | 'where'>;
  onCancel: () => void;
  onReload: () => void;
}

export function ProgressView({ state, onCancel, onReload }: ProgressViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  const reloadRef = useRef<HTMLButtonElement>(null);
  const ended = state.phase === 'failed' || state.phase === 'expired';
  // The make button is gone; keep keyboard and screen-reader focus in the widget, on something
  // with a role, since a name on a plain div is not spoken. Without scrolling: make has just
  // scrolled the window to the top (docs/reference/widget.md), and focus would scroll it back down.
  useEffect(() => ref.current?.focus({ preventScroll: true }), []);
  // When the merge has ended badly, the one thing left to do is reload: put focus there.
  useEffect(() => {
    if (ended) reloadRef.current?.focus({ preventScroll: true });
  }, [ended]);

  const stopped = ended || state.phase === 'done';
  return (
    <div
      ref={ref}
      className={ended ? 'audio-merge-progress audio-merge-progress--failed' : 'audio-merge-progress'}
      tabIndex={-1}
      role="group"
      aria-label={ended ? t().progressFailedGroup : t().progressGroup}
      data-phase={state.phase}
    >
      {/* A merge that ended badly shows its error, not a spinner above it. */}
      {!ended && (
        <div
          className={stopped ? 'audio-merge-spinner audio-merge-spinner--stopped' : 'audio-merge-spinner'}
          aria-hidden="true"
        />
      )}
      <div
        className="audio-merge-bar"
        role="progressbar"
        aria-label={t().progressBar}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={state.percent}
      >
        <div className="audio-merge-bar-fill" style={{ width: `${state.percent}%` }} />
      </div>
      <p className="audio-merge-status" aria-live={ended ? 'assertive' : 'polite'}>
        {statusLine(state)}
      </p>
      {stageLine(state) !== '' && (
        // Not live: it changes with every file, and the percentage above is what is spoken.
        <p className="audio-merge-stage">{stageLine(state)}</p>
      )}
      {state.phase === 'merging' && (
        <button type="button" className="audio-merge-cancel" disabled={state.cancelling} onClick={onCancel}>
          {state.cancelling ? t().cancelling : t().cancel}
        </button>
      )}
      {ended && (
        <button ref={reloadRef} type="button" className="audio-merge-reload" onClick={onReload}>
          {t().reload}
        </button>
      )}
    </div>
  );
}
