// One row of the list (120 px high, 320 px wide or wider where there is room): drag grip, position, file name, remove button, chapter title,
// duration/format (on a trimmed row: a reset button and the kept length) and waveform, player. A
// mouse drag starts anywhere on the row but its controls (player, buttons, the title field, the
// trim handles), which keep working.
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { KeyboardEvent, PointerEvent } from 'react';
import type { AudioItem } from '../../shared/types.js';
import { RowPlayer, type ListenHandler } from './RowPlayer.js';
import { livePosition } from '../store/order.js';
import { t } from '../i18n/locale.js';
import { clock, isTrimmed, savedSpan, spanOf, type Span } from '../trim/span.js';
import { TrimBar } from '../trim/TrimBar.js';
import type { PeaksAnswer } from '../trim/trim-api.js';
import { ChapterTitleField } from '../book/ChapterTitleField.js';
import { FileName } from '../names/FileName.js';

/** What a row needs for its chapter title field; a row without it shows none. */
export interface RowTitle {
  onChange: (id: string, text: string) => void;
  /** Why the server refused a row's title, by item id. */
  errors: Readonly<Record<string, string>>;
}

/** What a row needs to be trimmed; a row without it shows no handles. */
export interface RowTrim {
  onSpan: (id: string, start: number | null, end: number | null) => void;
  onReset: (id: string) => void;
  fetchPeaks: (id: string, bins: number) => Promise<PeaksAnswer>;
}

export interface SortableRowProps {
  item: AudioItem;
  index: number;
  count: number;
  /** The id of the one-line keyboard hint, so a focused row points to it. */
  hintId?: string;
  /** `byPointer`: a mouse or touch click, not a key. */
  onRemove: (id: string, byPointer?: boolean) => void;
  onListen?: ListenHandler;
  listenInterval?: number;
  trim?: RowTrim;
  title?: RowTitle;
}

/**
 * The container the server found, as a person calls it: an audiobook (.m4b) is probed as the MP4
 * audio it is, m4a, but its owner knows it as M4B.
 */
function formatLabel(item: Pick<AudioItem, 'format' | 'filename'>): string {
  if (item.format === 'm4a' && /\.m4b$/i.test(item.filename)) return 'M4B';
  return item.format.toUpperCase();
}

/** The small line under the name: "2:05 · MP3", in the language's digits. */
function rowMeta(item: AudioItem): string {
  const parts = [typeof item.duration === 'number' ? t().duration(item.duration) : '', formatLabel(item)];
  return parts.filter(Boolean).join(' · ');
}

/** Controls inside the row that must keep their own pointer and keyboard behaviour. */
const OWN_CONTROLS = 'audio, button, a, input, select, textarea, [role="slider"], .audio-merge-waveform';

function isOwnControl(target: EventTarget | null, row: Element): boolean {
  const control = target instanceof Element ? target.closest(OWN_CONTROLS) : null;
  return control !== null && row.contains(control);
}

const RESET_ICON = (
  <svg viewBox="0 0 16 16" width="14" height="14" focusable="false" aria-hidden="true">
    <path
      d="M3.2 6.2A5 5 0 1 1 3 9.5M2.8 2.6v3.8h3.8"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
);

const SCISSORS_ICON = (
  <svg viewBox="0 0 16 16" width="12" height="12" focusable="false" aria-hidden="true">
    <g fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round">
      <circle cx="4" cy="12" r="2.3" />
      <circle cx="12" cy="12" r="2.3" />
      <path d="M5.6 10.3L12.5 1.8M10.4 10.3L3.5 1.8" />
    </g>
  </svg>
);

interface MetaSlotProps {
  meta: string;
  /** The row's span and length, when it can be trimmed. */
  kept?: { span: Span; whole: number };
  trimmed: boolean;
}

/**
 * The waveform line's first words: "2:05 · MP3", or on a trimmed row the kept length beside a
 * pair of scissors (the whole "kept of" sentence for screen readers and as the tooltip). Both
 * stand in one grid cell, the one not shown invisible, so the cell is as wide either way and the
 * waveform does not move under a handle being dragged when the row becomes trimmed.
 */
function MetaSlot({ meta, kept, trimmed }: MetaSlotProps) {
  const shownLength = kept ? (trimmed ? kept.span.end - kept.span.start : kept.whole) : 0;
  const label = kept ? t().keptLabel(clock(shownLength), clock(kept.whole)) : '';
  return (
    <span className="audio-merge-meta-slot">
      {meta && (
        <span
          className={trimmed ? 'audio-merge-meta audio-merge-slot-idle' : 'audio-merge-meta'}
          aria-hidden={trimmed || undefined}
        >
          <bdi>{meta}</bdi>
        </span>
      )}
      {kept && (
        <span
          className={trimmed ? 'audio-merge-kept' : 'audio-merge-kept audio-merge-slot-idle'}
          title={trimmed ? label : undefined}
          aria-hidden={!trimmed || undefined}
        >
          {SCISSORS_ICON}
          <bdi className="audio-merge-kept-length" aria-hidden="true">
            {clock(shownLength)}
          </bdi>
          <span className="audio-merge-visually-hidden">{label}</span>
        </span>
      )}
    </span>
  );
}

export function SortableRow({
  item,
  index,
  count,
  hintId,
  onRemove,
  onListen,
  listenInterval,
  trim,
  title,
}: SortableRowProps) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging, activeIndex, overIndex } =
    useSortable({
      id: item.id,
      attributes: { role: 'listitem', roleDescription: t().rowRole },
    });
  const duration = typeof item.duration === 'number' && item.duration > 0 ? item.duration : undefined;
  const span = duration !== undefined ? spanOf(item, duration) : undefined;
  const trimmed = span !== undefined && duration !== undefined && isTrimmed(span, duration);
  const meta = rowMeta(item);
  const setSpan = (next: Span) => {
    const saved = savedSpan(next, duration as number);
    trim?.onSpan(item.id, saved.start, saved.end);
  };
  const position = livePosition(index, activeIndex, overIndex) + 1;
  const titleError = title?.errors[item.id];
  const rowClass = [
    'audio-merge-row',
    isDragging && 'audio-merge-row--lifted',
    titleError && 'audio-merge-row--invalid',
  ];

  // Space on the focused row lifts it; Space inside the player or on the button must still work.
  const onKeyDown = (e: KeyboardEvent<HTMLLIElement>) => {
    if (e.target === e.currentTarget) listeners?.onKeyDown?.(e);
  };
  const onPointerDown = (e: PointerEvent<HTMLLIElement>) => {
    if (!isOwnControl(e.target, e.currentTarget)) listeners?.onPointerDown?.(e);
  };

  return (
    <li
      ref={setNodeRef}
      {...attributes}
      aria-label={t().rowLabel(item.filename, position, count)}
      aria-describedby={
        hintId ? `${attributes['aria-describedby']} ${hintId}` : attributes['aria-describedby']
      }
      className={rowClass.filter(Boolean).join(' ')}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      data-id={item.id}
    >
      {/* The grip shows the row can move, and is where a touch drag starts (the rest of the row scrolls the page). */}
      <span className="audio-merge-handle" aria-hidden="true" title={t().hint}>
        <svg viewBox="0 0 10 16" width="10" height="16" focusable="false">
          <circle cx="2" cy="2" r="1.5" />
          <circle cx="8" cy="2" r="1.5" />
          <circle cx="2" cy="8" r="1.5" />
          <circle cx="8" cy="8" r="1.5" />
          <circle cx="2" cy="14" r="1.5" />
          <circle cx="8" cy="14" r="1.5" />
        </svg>
      </span>
      <div className="audio-merge-row-body">
        <div className="audio-merge-row-head">
          {/* Isolated, so a Latin name or a number keeps its own direction in a right-to-left row. */}
          <bdi className="audio-merge-position">{t().position(position)}</bdi>
          <FileName className="audio-merge-filename" name={item.filename} />
          <button
            type="button"
            className="audio-merge-remove"
            aria-label={t().remove(item.filename)}
            title={t().remove(item.filename)}
            onClick={(e) => onRemove(item.id, e.detail > 0)}
          >
            <svg viewBox="0 0 12 12" width="12" height="12" focusable="false" aria-hidden="true">
              <path d="M2 2l8 8M10 2l-8 8" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
            </svg>
          </button>
        </div>
        {title && <ChapterTitleField item={item} onChange={title.onChange} error={titleError} />}
        <div className="audio-merge-meta-line">
          {/* In the gutter under the position number, so the line's other parts keep their places. */}
          {trimmed && trim && (
            <button
              type="button"
              className="audio-merge-trim-reset"
              aria-label={t().resetTrimLabel(item.filename)}
              title={t().resetTrimLabel(item.filename)}
              onClick={() => trim.onReset(item.id)}
            >
              {RESET_ICON}
            </button>
          )}
          <MetaSlot
            meta={meta}
            kept={trim && span && duration !== undefined ? { span, whole: duration } : undefined}
            trimmed={trimmed && trim !== undefined}
          />
          {trim && duration !== undefined && (
            <TrimBar item={item} duration={duration} onSpan={setSpan} fetchPeaks={trim.fetchPeaks} />
          )}
        </div>
        <RowPlayer
          item={item}
          onListen={onListen}
          listenInterval={listenInterval}
          span={trimmed ? span : undefined}
        />
      </div>
    </li>
  );
}
