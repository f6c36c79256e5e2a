// The listener that turns job events into NewStatus broadcasts on each session's status channel.
// It needs only the events and a Broadcaster, so it runs wherever the browsers are connected.
import { STATUS_EVENT, statusChannel } from '../../shared/types.js';
import type { Store } from '../data/store.js';
import { statusOfEvent, statusOfJob, statusPayload, type LiveDetail } from '../jobs/job-status.js';
import type { JobEvents } from '../jobs/queue.js';
import type { Broadcaster } from './broadcaster.js';
import { appidOf } from './channels.js';

/** Broadcast every job event from now on; returns the function that stops it. */
export function broadcastJobStatus(events: JobEvents, broadcaster: Broadcaster): () => void {
  return events.on((event) => {
    const payload = statusPayload(statusOfEvent(event));
    broadcaster.broadcast(statusChannel(event.appid, event.sid), STATUS_EVENT, { ...payload });
  });
}

/**
 * The NewStatus a new subscriber gets at once: where the session's latest merge of that channel's
 * appid stands, or how it ended (a restart included). A reloaded page or a socket back after a
 * restart learns the end it would otherwise wait for forever.
 */
export function latestStatusWelcome(store: Store, liveDetail: LiveDetail = () => undefined) {
  return async (channel: string, sid: string) => {
    const job = await store.latestJob(sid);
    if (!job || job.appid !== appidOf(channel, sid)) return null;
    return { event: STATUS_EVENT, payload: { ...statusPayload(statusOfJob(job, liveDetail(job.id))) } };
  };
}
