// The compact output choice beside the make button: a format list and a chapters switch. Shown
// only when the host offers more than one format (data-formats); one format means no options.
import { useId } from 'react';
import type { OutputFormat } from '../../shared/output-formats.js';
import { t } from '../i18n/locale.js';

export interface OutputChoiceValue {
  format: OutputFormat;
  chapters: boolean;
}

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
      <label className="audio-merge-chapters-switch">
        <input
          type="checkbox"
          checked={value.chapters}
          onChange={(e) => onChange({ ...value, chapters: e.target.checked })}
        />{' '}
        {t().chapters}
      </label>
    </span>
  );
}
