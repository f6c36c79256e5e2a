// "Removed NAME. Undo" for each row whose delete waits out its undo window, and the list's notice.
// They stick to the bottom of the window while the list runs past it, so a removal from a long
// list is seen; while the pointer or the focus is on them, no undo window runs out.
import type { FocusEvent } from 'react';
import type { PendingRemoval } from '../store/state.js';
import { t } from '../i18n/locale.js';

export interface RemovalNoticesProps {
  removals: PendingRemoval[];
  notice: string | null;
  onUndo: (id: string) => void;
  onDismiss: () => void;
  /** True while the person is on the undo lines, false when they leave them. */
  onHold?: (held: boolean) => void;
}

/**
 * A word on what just happened (a cancelled merge), said politely, above the list: in the flow of
 * the page, never over a row.
 */
export function InfoLine({ info }: { info: string | null }) {
  return (
    <div className="audio-merge-info-region" role="status">
      {info && <p className="audio-merge-info">{info}</p>}
    </div>
  );
}

export function RemovalNotices({ removals, notice, onUndo, onDismiss, onHold }: RemovalNoticesProps) {
  const hold = (held: boolean) => onHold?.(held);
  const blurred = (e: FocusEvent<HTMLElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) hold(false);
  };
  return (
    <div className="audio-merge-notices">
      {/* Always in the page, so a screen reader hears each line as it is added. */}
      <div
        className="audio-merge-removals"
        role="status"
        onPointerEnter={() => hold(true)}
        onPointerLeave={(e) => {
          if (!e.currentTarget.contains(document.activeElement)) hold(false);
        }}
        onFocus={() => hold(true)}
        onBlur={blurred}
      >
        {removals.map(({ item }) => (
          <p key={item.id} className="audio-merge-removal">
            <span>{t().removed(item.filename)}</span>
            <button
              type="button"
              className="audio-merge-undo"
              aria-label={t().undoLabel(item.filename)}
              onClick={() => onUndo(item.id)}
            >
              {t().undo}
            </button>
          </p>
        ))}
      </div>
      {notice && (
        <p className="audio-merge-notice" role="alert">
          <span>{notice}</span>
          <button type="button" className="audio-merge-dismiss" onClick={onDismiss}>
            {t().dismiss}
          </button>
        </p>
      )}
    </div>
  );
}
