// The sound options' limits, shared by the command line, the server (its check and its API
// schema) and the widget (which refuses a value outside them before sending).

/** Inclusive ranges; outside them a value is a mistake, not a wish (an hour-long gap, +3 LUFS). */
export const SOUND_LIMITS = {
  loudness: { min: -70, max: -5 },
  gap: { min: 0, max: 60 },
  crossfade: { min: 0, max: 30 },
} as const;

/** Loudness targets people are advised to use: -16 LUFS for stereo speech, -19 for mono (it plays on both speakers). */
export const LOUDNESS_TARGETS = { stereo: -16, mono: -19 } as const;
