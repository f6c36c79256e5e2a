// A row's chapter title: the title typed (empty shows the default one as the placeholder), and why
// the server refused it, when it did. A file that carries chapters of its own gets a line saying
// so instead: a merge keeps those chapters, with their own titles, so a title typed for the row
// would appear nowhere. (An item the server has not counted chapters for keeps the field.) Keys and pointers stay the field's own: typing, Space
// included, never lifts or moves the row. What is typed or pasted is kept to the server's rule
// (the characters it refuses left out, at most 500 counted as it counts them: an HTML maxlength
// would count an emoji twice).
import { useId, useRef, type KeyboardEvent } from 'react';
import { CHAPTER_TITLE } from '../../shared/chapters-file.js';
import { fitTypedText } from '../../shared/typed-text.js';
import type { AudioItem } from '../../shared/types.js';
import { t } from '../i18n/locale.js';
import { useFittedPlaceholder } from '../names/FileName.js';

export interface ChapterTitleFieldProps {
  item: AudioItem;
  onChange: (id: string, text: string) => void;
  /** The server's reason, when it refused the title last sent. */
  error?: string;
}

const ownKeys = (e: KeyboardEvent<HTMLInputElement>) => e.stopPropagation();

/** The row's chapter line for a file whose own `count` chapters the merge keeps. */
function KeepsOwnChapters({ count }: { count: number }) {
  return (
    <div className="audio-merge-row-chapter audio-merge-own-chapters">
      <span className="audio-merge-chapter-label" title={t().keepsOwnChaptersHint}>
        {t().keepsOwnChapters(count)}
      </span>
    </div>
  );
}

export function ChapterTitleField({ item, onChange, error }: ChapterTitleFieldProps) {
  if (item.chapters) return <KeepsOwnChapters count={item.chapters} />;
  return <TitleInput item={item} onChange={onChange} error={error} />;
}

/** The field itself; a long default title is cut in its middle, so where titles differ shows. */
function TitleInput({ item, onChange, error }: ChapterTitleFieldProps) {
  const errorId = useId();
  const input = useRef<HTMLInputElement>(null);
  const placeholder = useFittedPlaceholder(input, item.defaultChapterTitle ?? '');
  return (
    <>
      <label className="audio-merge-row-chapter">
        <span className="audio-merge-chapter-label" aria-hidden="true">
          {t().chapterTitle}
        </span>
        <input
          type="text"
          className="audio-merge-chapter-title"
          dir="auto"
          value={item.chapterTitle ?? ''}
          ref={input}
          placeholder={placeholder}
          title={item.chapterTitle ? undefined : item.defaultChapterTitle}
          aria-label={t().chapterTitleLabel(item.filename)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onChange(item.id, fitTypedText(e.target.value, CHAPTER_TITLE))}
          onKeyDown={ownKeys}
        />
      </label>
      {error && (
        <p className="audio-merge-chapter-error" id={errorId} role="alert">
          {t().chapterTitleNotSaved(error)}
        </p>
      )}
    </>
  );
}
