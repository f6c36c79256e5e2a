// The listener that turns job events into NewStatus broadcasts on each session's status channel.
// It needs only the events and a Broadcaster, so it runs wherever the browsers are connected.
import { STATUS_EVENT, statusChannel } from '../../shared/types.js';
import { statusOfEvent, statusPayload } from '../jobs/job-status.js';
import type { JobEvents } from '../jobs/queue.js';
import type { Broadcaster } from './broadcaster.js';

/** Broadcast every job event from now on; returns the function that stops it. */
export function broadcastJobStatus(events: JobEvents, broadcaster: Broadcaster): () => void {
  return events.on((event) => {
    const payload = statusPayload(statusOfEvent(event));
    broadcaster.broadcast(statusChannel(event.appid, event.sid), STATUS_EVENT, { ...payload });
  });
}
