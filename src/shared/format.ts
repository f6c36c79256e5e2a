// Durations, sizes and times for people, as the server writes them (host page, messages). The
// widget writes its own in the reader's language (src/widget/i18n/format.ts).

/**
 * A duration's hours, minutes and whole seconds, as a media player shows it: the seconds are
 * truncated (101.74 s is 1:41, as the player beside it says), never rounded up. Null when the
 * value is no duration. The one rule for every h:mm:ss the server or the widget writes.
 */
export function clockParts(seconds: number): { h: number; m: number; s: number } | null {
  if (!Number.isFinite(seconds) || seconds < 0) return null;
  const total = Math.floor(seconds);
  return { h: Math.floor(total / 3600), m: Math.floor((total % 3600) / 60), s: total % 60 };
}

/** 75.9 -> "1:15", 3725 -> "1:02:05". */
export function formatDuration(seconds: number): string {
  const parts = clockParts(seconds);
  if (!parts) return '';
  const { h, m, s } = parts;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** 1536 -> "1.5 KB", 5_000_000 -> "4.8 MB" (binary units, one decimal under 10). */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  const units = ['B', 'KB', 'MB', 'GB'];
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${u === 0 || v >= 10 ? Math.round(v) : v.toFixed(1)} ${units[u]}`;
}

/** Bytes as a whole or short decimal number of MB, for limits in messages ("500", "0.05"). */
export function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return Number.isInteger(mb) ? String(mb) : String(Number(mb.toFixed(2)));
}

/** A moment to the minute, in UTC so every reader sees the same: "2026-11-21 14:30 UTC". */
export function formatUtcMinute(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
