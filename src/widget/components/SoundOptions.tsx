// The sound options beside the output choice: a disclosure button, and the panel it opens (matched
// loudness, silence or a crossfade between files, trimmed silence, gapless), one line of plain
// words under each. The choice itself is held by MakeArea and becomes options in sound-choice.ts.
import { useId, type ReactNode, type RefObject } from 'react';
import { LOUDNESS_TARGETS, SOUND_LIMITS } from '../../shared/sound-limits.js';
import { t } from '../i18n/locale.js';
import type { Between, SoundChoice } from './sound-choice.js';

/**
 * The disclosure button; how many options are on shows on it, so a closed panel hides nothing.
 * Its name is its text, the count included, so what is seen is what is said (and what voice
 * control hears).
 */
export function SoundToggle({
  open,
  panelId,
  setCount,
  onToggle,
}: {
  open: boolean;
  panelId: string;
  setCount: number;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      className="audio-merge-sound-toggle"
      aria-expanded={open}
      aria-controls={panelId}
      onClick={onToggle}
    >
      {t().soundToggle}{' '}
      {setCount > 0 && <span className="audio-merge-sound-count">{t().soundSet(setCount)}</span>}
      <span className="audio-merge-sound-caret" aria-hidden="true">
        {open ? '▴' : '▾'}
      </span>
    </button>
  );
}

export interface SoundPanelProps {
  id: string;
  value: SoundChoice;
  /** The loudness target shown (the person's, or the default for the files in the list). */
  target: number;
  /** Why the length is refused, when it is. */
  error: string | null;
  secondsRef: RefObject<HTMLInputElement | null>;
  onChange: (v: SoundChoice) => void;
}

/** A switch-like option with its one-line explanation. */
function Switch({
  label,
  help,
  checked,
  onChange,
  children,
}: {
  label: string;
  help: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  children?: ReactNode;
}) {
  const helpId = useId();
  return (
    <div className="audio-merge-sound-option">
      <label className="audio-merge-sound-switch">
        <input
          type="checkbox"
          role="switch"
          checked={checked}
          aria-describedby={helpId}
          onChange={(e) => onChange(e.target.checked)}
        />{' '}
        {label}
      </label>
      {children}
      <p className="audio-merge-sound-help" id={helpId}>
        {help}
      </p>
    </div>
  );
}

const BETWEEN: [Between, 'betweenNone' | 'betweenGap' | 'betweenCrossfade'][] = [
  ['none', 'betweenNone'],
  ['gap', 'betweenGap'],
  ['crossfade', 'betweenCrossfade'],
];

function BetweenFiles({
  value,
  error,
  secondsRef,
  onChange,
}: Pick<SoundPanelProps, 'value' | 'error' | 'secondsRef' | 'onChange'>) {
  const id = useId();
  const max = value.between === 'none' ? SOUND_LIMITS.gap.max : SOUND_LIMITS[value.between].max;
  return (
    <fieldset className="audio-merge-sound-option audio-merge-between" aria-describedby={`${id}-help`}>
      <legend>{t().between}</legend>
      <span className="audio-merge-between-choices">
        {BETWEEN.map(([between, word]) => (
          <label key={between}>
            <input
              type="radio"
              name={`${id}-between`}
              value={between}
              checked={value.between === between}
              onChange={() => onChange({ ...value, between })}
            />{' '}
            {t()[word]}
          </label>
        ))}
        <label className="audio-merge-seconds">
          {t().seconds}{' '}
          <input
            ref={secondsRef}
            type="number"
            inputMode="decimal"
            min={0.1}
            max={max}
            step={0.1}
            value={value.seconds}
            disabled={value.between === 'none'}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(e) => onChange({ ...value, seconds: e.target.value })}
          />
        </label>
      </span>
      <p className="audio-merge-sound-help" id={`${id}-help`}>
        {t().betweenHelp}
      </p>
      {error && (
        <p className="audio-merge-sound-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}

export function SoundPanel({ id, value, target, error, secondsRef, onChange }: SoundPanelProps) {
  return (
    <div className="audio-merge-sound" id={id} role="group" aria-label={t().soundToggle}>
      <Switch
        label={t().loudness}
        help={t().loudnessHelp}
        checked={value.loudness}
        onChange={(loudness) => onChange({ ...value, loudness })}
      >
        <select
          className="audio-merge-loudness-target"
          aria-label={t().loudnessTarget}
          value={target}
          disabled={!value.loudness}
          onChange={(e) => onChange({ ...value, target: Number(e.target.value) })}
        >
          <option value={LOUDNESS_TARGETS.stereo}>{t().targetStereo}</option>
          <option value={LOUDNESS_TARGETS.mono}>{t().targetMono}</option>
        </select>
      </Switch>
      <BetweenFiles value={value} error={error} secondsRef={secondsRef} onChange={onChange} />
      <Switch
        label={t().trimSilence}
        help={t().trimSilenceHelp}
        checked={value.trimSilence}
        onChange={(trimSilence) => onChange({ ...value, trimSilence })}
      />
      <Switch
        label={t().gapless}
        help={t().gaplessHelp}
        checked={value.gapless}
        onChange={(gapless) => onChange({ ...value, gapless })}
      />
    </div>
  );
}
