// The output's channels and sample rate a caller may ask for (the command line and the server).

export const CHANNEL_CHOICES = [1, 2] as const;
export type ChannelChoice = (typeof CHANNEL_CHOICES)[number];

/** Hz; an MP3 or AAC output takes the nearest rate its format has, Opus always plays at 48 kHz. */
export const SAMPLE_RATE_RANGE = { min: 8000, max: 192000 } as const;

export const isChannelChoice = (v: unknown): v is ChannelChoice => v === 1 || v === 2;

export const isSampleRate = (v: unknown): v is number =>
  Number.isInteger(v) && (v as number) >= SAMPLE_RATE_RANGE.min && (v as number) <= SAMPLE_RATE_RANGE.max;
