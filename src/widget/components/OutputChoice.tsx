// The compact output choice beside the make button: a format list, the quality for formats with
// one, and a chapters switch (a note instead for a format that holds no chapters). Shown only when
// the host offers more than one format (data-formats); one format means no options.
import { useId } from 'react';
import type { OutputFormat } from '../../shared/output-formats.js';
import { t } from '../i18n/locale.js';
import { carriesChapters, qualitiesFor, type BookChoice, type Quality } from '../book/book-choice.js';

export type OutputChoiceValue = Pick<BookChoice, 'format' | 'chapters' | 'quality'>;

export function OutputChoice({
  formats,
  value,
  onChange,
}: {
  formats: OutputFormat[];
  value: OutputChoiceValue;
  onChange: (v: OutputChoiceValue) => void;
}) {
  const id = useId();
  const qualities = qualitiesFor(value.format);
  return (
    <span className="audio-merge-output">
      <label className="audio-merge-visually-hidden" htmlFor={`${id}-format`}>
        {t().format}
      </label>
      <select
        id={`${id}-format`}
        className="audio-merge-format"
        value={value.format}
        onChange={(e) => onChange({ ...value, format: e.target.value as OutputFormat })}
      >
        {formats.map((f) => (
          <option key={f} value={f}>
            {t().formatLabels[f]}
          </option>
        ))}
      </select>
      {qualities.length > 0 && (
        <>
          <label className="audio-merge-visually-hidden" htmlFor={`${id}-quality`}>
            {t().quality}
          </label>
          <select
            id={`${id}-quality`}
            className="audio-merge-quality"
            value={value.quality}
            onChange={(e) => onChange({ ...value, quality: e.target.value as Quality })}
          >
            {qualities.map((q) => (
              <option key={q} value={q}>
                {t().qualityLabels[q]}
              </option>
            ))}
          </select>
        </>
      )}
      {carriesChapters(value.format) ? (
        <label className="audio-merge-chapters-switch">
          <input
            type="checkbox"
            checked={value.chapters}
            onChange={(e) => onChange({ ...value, chapters: e.target.checked })}
          />{' '}
          {t().chapters}
        </label>
      ) : (
        <span className="audio-merge-no-chapters">{t().noChapters(t().formatNames[value.format])}</span>
      )}
    </span>
  );
}
