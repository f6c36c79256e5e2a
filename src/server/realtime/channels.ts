// The Laravel Echo side of the protocol, kept pure: what a subscribe message must look like and
// which channels a browser may join. Only status-channel-{appid}-{sid} exists.

const PREFIX = 'status-channel-';
/** Longer channel names are refused outright; real ones are a few dozen characters. */
const MAX_CHANNEL_LENGTH = 256;

/** The channel named in an Echo `subscribe`/`unsubscribe` payload, or null when the shape is wrong. */
export function channelOf(payload: unknown): string | null {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
  const channel = (payload as { channel?: unknown }).channel;
  if (typeof channel !== 'string' || channel.length === 0 || channel.length > MAX_CHANNEL_LENGTH) return null;
  return channel;
}

/**
 * May the browser owning `sid` join `channel`? The appid may itself contain '-', so the sid is
 * matched as the suffix rather than by splitting; the appid part must not be empty.
 */
export function mayJoin(channel: string, sid: string | null): boolean {
  if (!sid) return false;
  const suffix = `-${sid}`;
  return (
    channel.startsWith(PREFIX) && channel.endsWith(suffix) && channel.length > PREFIX.length + suffix.length
  );
}

/** The appid part of a channel `mayJoin` accepted for `sid`. */
export function appidOf(channel: string, sid: string): string {
  return channel.slice(PREFIX.length, channel.length - sid.length - 1);
}
