// The foot of the list view: the output choice, the book's details and the sound options (when
// the host offers them), and the make button, whose text is the host's make label
// (`data-make-label`, docs/reference/widget.md: host pages rely on it) with `{format}` in it naming the
// chosen format, and a hint beside it when that label names another format than the chosen one.
// Only what the person set is sent: with nothing offered, mergemp3 goes out with no options.
import { useEffect, useId, useRef, useState } from 'react';
import type { OutputFormat } from '../../shared/output-formats.js';
import type { AudioItem } from '../../shared/types.js';
import { makeHintFor } from './make-label.js';
import { OutputChoice } from './OutputChoice.js';
import { BookDetails } from '../book/BookDetails.js';
import {
  bookOptionsOf,
  initialBookChoice,
  makeLabelFor,
  restoreChoices,
  type BookChoice,
} from '../book/book-choice.js';
import { useKeptChoices } from '../book/use-kept-choices.js';
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
  /** The page's appid, when the server keeps the person's choices and the session's cover. */
  keepFor?: string;
  /** Sends the choices to be kept (the store's, so a merge flushes them first). */
  onKeep?: (choices: Record<string, unknown>) => void;
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

export function MakeArea({
  items,
  makeLabel,
  formats,
  sound,
  disabled,
  onMake,
  keepFor,
  onKeep,
}: MakeAreaProps) {
  const panelId = useId();
  const secondsRef = useRef<HTMLInputElement>(null);
  const kept = useKeptChoices(keepFor, onKeep);
  const restored = kept.saved && restoreChoices(kept.saved, formats);
  const [output, setOutput] = useState<BookChoice>(() => restored?.book ?? initialBookChoice(formats[0]));
  const [choice, setChoice] = useState<SoundChoice>(() => restored?.sound ?? initialSoundChoice);
  const [loaded, setLoaded] = useState(kept.saved !== undefined);
  const [open, setOpen] = useState(false);
  const choosing = formats.length > 1;
  const offersSound = sound || choosing;
  const checked = offersSound ? soundOptionsOf(choice, items) : ({ ok: true, options: {} } as const);
  const hint = makeHintFor(makeLabel, choosing ? output.format : null);
  const label = makeLabelFor(makeLabel, choosing ? output.format : formats[0]);
  const chosen = { ...(choosing ? bookOptionsOf(output) : {}), ...(checked.ok ? checked.options : {}) };

  // The server's answer on a fresh page sets the area once; from then on each change is kept.
  useEffect(() => {
    if (loaded || !restored) return;
    setOutput(restored.book);
    setChoice(restored.sound);
    setLoaded(true);
  }, [loaded, restored]);
  const chosenText = JSON.stringify(chosen);
  // What the area showed once loaded: nothing is kept until the person changes something.
  const [shown, setShown] = useState<string | null>(null);
  useEffect(() => {
    if (!loaded) return;
    if (shown === null) setShown(chosenText);
    else if (checked.ok && chosenText !== shown) kept.keep(JSON.parse(chosenText) as Record<string, unknown>);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, chosenText, shown]);

  function make(): void {
    if (!checked.ok) {
      // Refused here, before the merge is asked for: show where the problem is.
      setOpen(true);
      requestAnimationFrame(() => secondsRef.current?.focus());
      return;
    }
    const options = { ...(choosing ? bookOptionsOf(output) : {}), ...checked.options };
    // Kept before make: the store sends every waiting save before it asks for the merge.
    if (shown !== null && JSON.stringify(options) !== shown) kept.keep(options);
    // make never rejects: its failures are shown and logged by the store.
    void (Object.keys(options).length > 0 ? onMake(options) : onMake());
  }

  if (!offersSound) return <MakeButton disabled={disabled} label={label} onClick={make} />;
  return (
    <div className="audio-merge-actions">
      {choosing && (
        <OutputChoice formats={formats} value={output} onChange={(v) => setOutput({ ...output, ...v })} />
      )}
      {choosing && (
        <BookDetails
          value={output.details}
          onChange={(details) => setOutput({ ...output, details })}
          withCover={keepFor !== undefined}
          appid={keepFor}
          listKey={items.map((i) => i.id).join(' ')}
        />
      )}
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
      <MakeButton disabled={disabled} label={label} hint={hint} onClick={make} />
    </div>
  );
}
