// The "Book details" panel beside the format choice: collapsed until wanted, each detail a
// labelled field, and (when the page keeps a cover for the session) a cover drop area with its
// preview and a remove control.
import { useEffect, useId, useState, type DragEvent } from 'react';
import { fetchTagDetails, hasCover, reasonOf, removeCover, uploadCover } from '../api/http.js';
import { detailRule } from '../../shared/details.js';
import { fitTypedText } from '../../shared/typed-text.js';
import { API } from '../../shared/types.js';
import { t } from '../i18n/locale.js';
import { PANEL_DETAILS, type BookChoice, type PanelDetail } from './book-choice.js';
import { coverMaybeSet, markCover } from './cover-mark.js';

type Details = BookChoice['details'];

/**
 * What a merge would take from the files' tags, asked when the panel opens and again when the
 * list changes while it is open; nothing without an appid, or when the asking fails.
 */
function useTagDetails(appid: string | undefined, open: boolean, listKey: string): Details {
  const [found, setFound] = useState<Details>({});
  useEffect(() => {
    if (!open || appid === undefined) return;
    let current = true;
    fetchTagDetails(appid).then(
      (d) => current && setFound(d),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [appid, open, listKey]);
  return found;
}

export function BookDetails({
  value,
  onChange,
  withCover,
  appid,
  listKey = '',
}: {
  value: Details;
  onChange: (d: Details) => void;
  withCover: boolean;
  /** The page's appid: the fields' placeholders say what the files' tags give. */
  appid?: string;
  /** Changes when the list does (its ids, in order). */
  listKey?: string;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const fromTags = useTagDetails(appid, open, listKey);
  // Kept to the rule the server checks (an HTML maxlength would count an emoji twice).
  const set = (name: PanelDetail, v: string) =>
    onChange({ ...value, [name]: fitTypedText(v, detailRule(name)) });
  return (
    <div className="audio-merge-details">
      <button
        type="button"
        className="audio-merge-details-toggle"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => setOpen(!open)}
      >
        {t().detailsToggle}
        <span className="audio-merge-details-caret" aria-hidden="true">
          {open ? '▴' : '▾'}
        </span>
      </button>
      {open && (
        <div id={`${id}-panel`} className="audio-merge-details-panel">
          {PANEL_DETAILS.map((name) => (
            <label key={name} className={`audio-merge-detail audio-merge-detail-${name}`}>
              <span>{t().detailLabels[name]}</span>
              {name === 'description' ? (
                <textarea value={value[name] ?? ''} onChange={(e) => set(name, e.target.value)} />
              ) : (
                // An empty field shows what the merge takes from the files' tags.
                <input
                  type="text"
                  dir="auto"
                  value={value[name] ?? ''}
                  placeholder={fromTags[name] ?? ''}
                  onChange={(e) => set(name, e.target.value)}
                />
              )}
            </label>
          ))}
          {withCover && <CoverArea />}
        </div>
      )}
    </div>
  );
}

function CoverArea() {
  const [version, setVersion] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!coverMaybeSet()) return;
    void hasCover().then(
      (has) => {
        if (has === null) return;
        markCover(has);
        setVersion((v) => (has ? (v ?? Date.now()) : v));
      },
      () => undefined,
    );
  }, []);

  async function take(file: File | undefined): Promise<void> {
    if (!file) return;
    try {
      await uploadCover(file, file.name);
      markCover(true);
      setError(null);
      setVersion(Date.now());
    } catch (err) {
      setError(t().coverFailed(reasonOf(err)));
    }
  }
  async function remove(): Promise<void> {
    await removeCover().then(
      () => markCover(false),
      (err: unknown) => setError(t().coverFailed(reasonOf(err))),
    );
    setVersion(null);
  }
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    void take(e.dataTransfer.files[0]);
  };
  return (
    <div className="audio-merge-cover" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      {/* The browser's own file button speaks the browser's language and says "No file chosen"
          beside a cover that is set: it is hidden but kept focusable, and this label, in the
          page's words, opens it. */}
      <label className="audio-merge-cover-pick">
        <span>{t().cover}</span>
        <input
          type="file"
          className="audio-merge-visually-hidden"
          accept="image/jpeg,image/png"
          onChange={(e) => {
            void take(e.target.files?.[0]);
            e.target.value = ''; // the same image chosen again is taken again
          }}
        />
        <span className="audio-merge-cover-choose">{t().coverChoose}</span>
      </label>
      <span className="audio-merge-cover-hint">{t().coverDrop}</span>
      {/* The preview and its remove button stay together when the box wraps. */}
      {version !== null && (
        <span className="audio-merge-cover-set">
          <img className="audio-merge-cover-preview" src={`${API.cover}?v=${version}`} alt={t().cover} />
          <button type="button" className="audio-merge-cover-remove" onClick={() => void remove()}>
            {t().coverRemove}
          </button>
        </span>
      )}
      {error && (
        <p className="audio-merge-cover-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
