/** The page origin test servers accept for realtime handshakes (their PUBLIC_ORIGIN). */
export const TEST_ORIGIN = 'http://audio-merge.test';
