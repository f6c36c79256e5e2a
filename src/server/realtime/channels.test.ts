import { describe, expect, it } from 'vitest';
import { appidOf, channelOf, mayJoin } from './channels.js';

describe('Echo channel rules', () => {
  it('reads the channel of a subscribe payload and ignores anything else', () => {
    expect(channelOf({ channel: 'status-channel-a-b', auth: { headers: {} } })).toBe('status-channel-a-b');
    for (const bad of [
      null,
      'status-channel-a-b',
      ['status-channel-a-b'],
      {},
      { channel: 7 },
      { channel: '' },
    ]) {
      expect(channelOf(bad)).toBeNull();
    }
    expect(channelOf({ channel: 'x'.repeat(256) })).not.toBeNull();
    expect(channelOf({ channel: 'x'.repeat(257) })).toBeNull();
  });

  it('lets a session join its own status channels, whatever dashes the appid holds', () => {
    expect(mayJoin('status-channel-app-Ab_9', 'Ab_9')).toBe(true);
    expect(mayJoin('status-channel-my-app-2-Ab_9', 'Ab_9')).toBe(true);
  });

  it('refuses another session, no session, an empty appid and other channel kinds', () => {
    expect(mayJoin('status-channel-app-Other', 'Ab_9')).toBe(false);
    expect(mayJoin('status-channel-app-xAb_9', 'Ab_9')).toBe(false);
    expect(mayJoin('status-channel-app-Ab_9', null)).toBe(false);
    expect(mayJoin('status-channel-app-Ab_9', '')).toBe(false);
    expect(mayJoin('status-channel--Ab_9', 'Ab_9')).toBe(false);
    expect(mayJoin('private-status-channel-app-Ab_9', 'Ab_9')).toBe(false);
    expect(mayJoin('presence-app-Ab_9', 'Ab_9')).toBe(false);
  });

  it('reads the appid back out of a channel, dashes and all', () => {
    expect(appidOf('status-channel-my-app-Ab_9', 'Ab_9')).toBe('my-app');
    expect(appidOf('status-channel-a-b-c-d', 'c-d')).toBe('a-b');
  });
});
