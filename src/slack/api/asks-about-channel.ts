/** Words that ask the app about the channel the person is looking at ("this channel"). */
export const ASKS_ABOUT_CHANNEL = /\b(this|the|our) channel\b/i;
