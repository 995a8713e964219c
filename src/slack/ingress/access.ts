/**
 * SLACK_ALLOWED_CHANNELS / SLACK_ALLOWED_USERS: empty lists allow everyone. The channel list
 * applies to every conversation, direct messages included (their ids start with D).
 */
export interface Allowlists {
  channels: readonly string[];
  users: readonly string[];
}

export type AccessDenial = 'channel' | 'user';

export function checkAccess(
  lists: Allowlists,
  where: { channel: string; user: string },
): AccessDenial | undefined {
  if (lists.channels.length > 0 && !lists.channels.includes(where.channel)) return 'channel';
  if (lists.users.length > 0 && !lists.users.includes(where.user)) return 'user';
  return undefined;
}

/** Plain words for the person who was refused (shown to them only). */
export function refusalText(denial: AccessDenial): string {
  return denial === 'channel'
    ? "Sorry, I'm not enabled in this conversation. Ask whoever runs agent-relay to allow it."
    : "Sorry, you're not on the list of people who may use agent-relay. Ask whoever runs it to add you.";
}
