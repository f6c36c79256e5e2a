import { describe, expect, it } from 'vitest';
import { job } from '../../../test/support/job-kit.js';
import { MemoryStore } from '../../../test/support/memory-store.js';
import { latestStatusWelcome } from './status-broadcasts.js';

describe('the status a new subscriber is told', () => {
  it("is the session's latest merge of the channel's appid, however it ended; nothing when there is none", async () => {
    const store = new MemoryStore();
    await store.createSession('h1', 'S1', 'csrf', 0);
    const welcome = latestStatusWelcome(store);
    expect(await welcome('status-channel-my-app-S1', 'S1')).toBeNull();

    await store.addJob(
      job('j1', 'S1', [], 'my-app', {
        status: 'running',
        requestId: 'r1',
        percent: 37,
        statusText: 'Merging: 37%',
        createdAt: 1,
      }),
    );
    expect(await welcome('status-channel-my-app-S1', 'S1')).toEqual({
      event: 'NewStatus',
      payload: { data: '37', requestId: 'r1', state: 'running', percent: 37 },
    });
    // Another widget (appid) of the same session hears nothing of it.
    expect(await welcome('status-channel-other-S1', 'S1')).toBeNull();

    await store.updateJob('j1', {
      status: 'failed',
      error: 'The server restarted',
      statusText: 'The server restarted',
      percent: null,
    });
    expect((await welcome('status-channel-my-app-S1', 'S1'))?.payload).toEqual({
      data: 'The server restarted',
      requestId: 'r1',
      state: 'failed',
      percent: null,
    });
  });
});
