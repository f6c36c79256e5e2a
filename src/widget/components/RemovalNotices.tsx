// "Removed NAME. Undo" for each row whose delete waits out its undo window, and the list's notice.
import type { PendingRemoval } from '../store/state.js';
import { texts } from '../texts.js';

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
            <span>{texts.removed(item.filename)}</span>
            <button
              type="button"
              className="audio-merge-undo"
              aria-label={texts.undoLabel(item.filename)}
              onClick={() => onUndo(item.id)}
            >
              {texts.undo}
            </button>
          </p>
        ))}
      </div>
      {notice && (
        <p className="audio-merge-notice" role="alert">
          <span>{notice}</span>
          <button type="button" className="audio-merge-dismiss" onClick={onDismiss}>
            {texts.dismiss}
          </button>
        </p>
      )}
    </>
  );
}
