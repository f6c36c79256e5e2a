// The foot of the list view: the output choice and the sound options (when the host offers them),
// and the make button, whose text is always the host's make label (`data-make-label`, docs/api.md
// section 4: host pages rely on it), with a hint beside it when that label names another format than
// the chosen one. Only what the person set is sent: with nothing offered, mergemp3 goes out with no
// options.
import { useId, useRef, useState } from 'react';
import type { OutputFormat } from '../../shared/output-formats.js';
import type { AudioItem } from '../../shared/types.js';
import { makeHintFor } from './make-label.js';
import { OutputChoice, type OutputChoiceValue } from './OutputChoice.js';
import { initialSoundChoice, soundOptionsOf, targetOf, type SoundChoice } from './sound-choice.js';
import { SoundPanel, SoundToggle } from './SoundOptions.js';

export interface MakeAreaProps {
  items: readonly AudioItem[];
  makeLabel: string;
  /** The formats the host offers; with more than one, a choice sits beside make. */
  formats: OutputFormat[];
  /** The host asks for the sound options (data-sound="on"); more than one format brings them too. */
  sound: boolean;
  disabled: boolean;
  onMake: (options?: Record<string, unknown>) => Promise<void>;
}

function MakeButton({
  disabled,
  label,
  hint,
  onClick,
}: {
  disabled: boolean;
  label: string;
  hint?: string | null;
  onClick: () => void;
}) {
  const hintId = useId();
  return (
    <>
      {hint && (
        <span id={hintId} className="audio-merge-make-hint">
          {hint}
        </span>
      )}
      <button
        type="button"
        className="audio-merge-make"
        disabled={disabled}
        onClick={onClick}
        aria-describedby={hint ? hintId : undefined}
      >
        {label}
      </button>
    </>
  );
}

export function MakeArea({ items, makeLabel, formats, sound, disabled, onMake }: MakeAreaProps) {
  const panelId = useId();
  const secondsRef = useRef<HTMLInputElement>(null);
  const [output, setOutput] = useState<OutputChoiceValue>({ format: formats[0], chapters: true });
  const [choice, setChoice] = useState<SoundChoice>(initialSoundChoice);
  const [open, setOpen] = useState(false);
  const choosing = formats.length > 1;
  const offersSound = sound || choosing;
  const checked = offersSound ? soundOptionsOf(choice, items) : ({ ok: true, options: {} } as const);
  const hint = makeHintFor(makeLabel, choosing ? output.format : null);

  function make(): void {
    if (!checked.ok) {
      // Refused here, before the merge is asked for: show where the problem is.
      setOpen(true);
      requestAnimationFrame(() => secondsRef.current?.focus());
      return;
    }
    const options = {
      ...(choosing ? { format: output.format, chapters: output.chapters } : {}),
      ...checked.options,
    };
    // make never rejects: its failures are shown and logged by the store.
    void (Object.keys(options).length > 0 ? onMake(options) : onMake());
  }

  if (!offersSound) return <MakeButton disabled={disabled} label={makeLabel} onClick={make} />;
  return (
    <div className="audio-merge-actions">
      {choosing && <OutputChoice formats={formats} value={output} onChange={setOutput} />}
      <SoundToggle
        open={open}
        panelId={panelId}
        setCount={checked.ok ? Object.keys(checked.options).length : 0}
        onToggle={() => setOpen(!open)}
      />
      {open && (
        <SoundPanel
          id={panelId}
          value={choice}
          target={targetOf(choice, items)}
          error={checked.ok ? null : checked.message}
          secondsRef={secondsRef}
          onChange={setChoice}
        />
      )}
      <MakeButton disabled={disabled} label={makeLabel} hint={hint} onClick={make} />
    </div>
  );
}
