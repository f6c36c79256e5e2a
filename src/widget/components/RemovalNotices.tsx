// "Removed NAME. Undo" for each row whose delete waits out its undo window, and the list's notice.
import type { PendingRemoval } from '../store/state.js';
import { t } from '../i18n/locale.js';

export interface RemovalNoticesProps {
  removals: PendingRemoval[];
  notice: string | null;
  onUndo: (id: string) => void;
  onDismiss: () => void;
}

export function RemovalNotices({ removals, notice, onUndo, onDismiss }: RemovalNoticesProps) {
  return (
    <>
      {/* Always in the page, so a screen reader hears each line as it is added. */}
      <div className="audio-merge-removals" role="status">
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
    </>
  );
}
