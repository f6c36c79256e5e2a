// The progress view (docs/api.md section 4): a determinate bar, the status text and a spinner.
import { useEffect, useRef } from 'react';
import { statusLabel } from '../store/state.js';

export interface ProgressViewProps {
  progress: string;
  percent: number;
}

export function ProgressView({ progress, percent }: ProgressViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  // The make button is gone; keep keyboard and screen-reader focus in the widget, on something
  // with a role, since a name on a plain div is not spoken. Without scrolling: make has just
  // scrolled the window to the top (docs/api.md section 4), and focus would scroll it back down.
  useEffect(() => ref.current?.focus({ preventScroll: true }), []);
  return (
    <div ref={ref} className="audio-merge-progress" tabIndex={-1} role="group" aria-label="Merging your files">
      <div className="audio-merge-spinner" aria-hidden="true" />
      <div
        className="audio-merge-bar"
        role="progressbar"
        aria-label="Merge progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="audio-merge-bar-fill" style={{ width: `${percent}%` }} />
      </div>
      <p className="audio-merge-status" aria-live="polite">
        {statusLabel(progress)}
      </p>
    </div>
  );
}
