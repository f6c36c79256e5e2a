// An item as the page and every answer show it (getDataJson, an upload's answer): its row, less
// what only the server needs, with the chapter title a merge would give it by default.
import { defaultChapterTitle } from '../../engine/index.js';
import type { AudioItem } from '../../shared/types.js';
import type { ItemRow } from '../data/store.js';

export function toAudioItem(row: ItemRow): AudioItem {
  return {
    id: row.id,
    sid: row.sid,
    newfilename: row.newfilename,
    format: row.format,
    filename: row.filename,
    duration: row.duration,
    size: row.size,
    channels: row.channels,
    start: row.start ?? null,
    end: row.end ?? null,
    chapterTitle: row.chapterTitle ?? null,
    defaultChapterTitle: defaultChapterTitle(row.filename, row.titleTag),
    // Left out while unknown (an item stored before they were counted).
    ...(typeof row.chapterCount === 'number' ? { chapters: row.chapterCount } : {}),
  };
}
