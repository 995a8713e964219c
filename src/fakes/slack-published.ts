/**
 * The Slack Web API methods the fake Slack serves, held to `@slack/web-api`'s method argument
 * types (the SDK's published description of each method's arguments): for each method, every
 * argument its type knows, and the sets of arguments one of which the type requires (a
 * message needs `channel` and one of `text`, `blocks`, `attachments` or `markdown_text`). The
 * compiler holds the table to the SDK's types both ways, so a row cannot name an argument the
 * SDK does not have, nor leave out one it does; a method the fake serves without a row here
 * does not compile.
 *
 * At run time each call is checked against its row: no argument the method does not take
 * (Slack ignores those, so a relay that sent one would be relying on nothing), and one of the
 * required sets present. A call that fails answers Slack's `invalid_arguments` (an unknown
 * method answers `unknown_method`) and is recorded as a refusal (`published.ts`).
 */
import type { WebClient, WebClientOptions } from '@slack/web-api';

type At<T, P extends string> = P extends `${infer H}.${infer R}`
  ? H extends keyof T
    ? At<T[H], R>
    : never
  : P extends keyof T
    ? T[P]
    : never;
/** The arguments of one Web API method, as `@slack/web-api` types them. */
type ArgsOf<M extends string> = NonNullable<
  Parameters<Extract<At<WebClient, M>, (...a: never[]) => unknown>>[0]
>;
type AllKeys<T> = T extends unknown ? keyof T : never;
type Every<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : Exclude<All, Listed>;

/** The methods the fake serves (`slack-methods.ts`, `slack-agent-sessions.ts`, `slack-web-api.ts`). */
export type SlackServedMethod =
  | 'chat.postMessage'
  | 'chat.update'
  | 'chat.postEphemeral'
  | 'reactions.add'
  | 'reactions.remove'
  | 'conversations.replies'
  | 'conversations.history'
  | 'auth.test'
  | 'views.open'
  | 'views.publish'
  | 'views.update'
  | 'assistant.threads.setStatus'
  | 'assistant.threads.setTitle'
  | 'assistant.threads.setSuggestedPrompts'
  | 'apps.connections.open'
  | 'chat.getPermalink'
  | 'users.conversations'
  | 'users.info'
  | 'conversations.members'
  | 'conversations.info'
  | 'oauth.v2.access'
  | 'auth.revoke'
  | 'agents.sessions.setStatus'
  | 'agents.sessions.rename';

interface Row<M extends string> {
  args: readonly AllKeys<ArgsOf<M>>[];
  /** The call fits when every argument of one of these sets is given. */
  required: readonly (readonly AllKeys<ArgsOf<M>>[])[];
}

/** A message call fits with its `target` arguments and one of the ways to give the content. */
const withContent = <K extends string>(...target: K[]) =>
  (['text', 'blocks', 'attachments', 'markdown_text'] as const).map((c) => [c, ...target].sort());

/** What every message call takes: its contents, the channel, how to read the text, the token. */
const MESSAGE_ARGS = [
  'as_user',
  'attachments',
  'blocks',
  'channel',
  'link_names',
  'markdown_text',
  'parse',
  'text',
  'token',
] as const;
/** What both reads of a conversation's messages take: the channel and the timeline's pages. */
const TIMELINE_ARGS = [
  'channel',
  'cursor',
  'include_all_metadata',
  'inclusive',
  'latest',
  'limit',
  'oldest',
  'token',
] as const;

export const SLACK_METHOD_ARGUMENTS = {
  'chat.postMessage': {
    args: [
      ...MESSAGE_ARGS,
      'icon_emoji',
      'icon_url',
      'metadata',
      'mrkdwn',
      'reply_broadcast',
      'thread_ts',
      'unfurl_links',
      'unfurl_media',
      'username',
    ],
    required: withContent('channel'),
  },
  'chat.update': {
    args: [...MESSAGE_ARGS, 'file_ids', 'metadata', 'reply_broadcast', 'ts'],
    required: withContent('channel', 'ts'),
  },
  'chat.postEphemeral': {
    args: [...MESSAGE_ARGS, 'icon_emoji', 'icon_url', 'thread_ts', 'user', 'username'],
    required: withContent('channel', 'user'),
  },
  'reactions.add': {
    args: ['channel', 'name', 'timestamp', 'token'],
    required: [['channel', 'name', 'timestamp']],
  },
  'reactions.remove': {
    args: ['channel', 'file', 'file_comment', 'name', 'timestamp', 'token'],
    required: [
      ['channel', 'name', 'timestamp'],
      ['file', 'name'],
      ['file_comment', 'name'],
    ],
  },
  'conversations.replies': {
    args: [...TIMELINE_ARGS, 'ts'],
    required: [['channel', 'ts']],
  },
  'conversations.history': {
    args: TIMELINE_ARGS,
    required: [['channel']],
  },
  'auth.test': {
    args: ['token'],
    required: [[]],
  },
  'views.open': {
    args: ['interactivity_pointer', 'token', 'trigger_id', 'view'],
    required: [
      ['trigger_id', 'view'],
      ['interactivity_pointer', 'view'],
    ],
  },
  'views.publish': {
    args: ['hash', 'token', 'user_id', 'view'],
    required: [['user_id', 'view']],
  },
  'views.update': {
    args: ['external_id', 'hash', 'token', 'view', 'view_id'],
    required: [
      ['external_id', 'view'],
      ['view', 'view_id'],
    ],
  },
  'assistant.threads.setStatus': {
    args: [
      'channel_id',
      'icon_emoji',
      'icon_url',
      'loading_messages',
      'status',
      'thread_ts',
      'token',
      'username',
    ],
    required: [['channel_id', 'status', 'thread_ts']],
  },
  'assistant.threads.setTitle': {
    args: ['channel_id', 'thread_ts', 'title', 'token'],
    required: [['channel_id', 'thread_ts', 'title']],
  },
  'assistant.threads.setSuggestedPrompts': {
    args: ['channel_id', 'prompts', 'thread_ts', 'title', 'token'],
    required: [['channel_id', 'prompts']],
  },
  'apps.connections.open': {
    args: [],
    required: [[]],
  },
  'chat.getPermalink': {
    args: ['channel', 'message_ts', 'token'],
    required: [['channel', 'message_ts']],
  },
  'users.conversations': {
    args: ['cursor', 'exclude_archived', 'limit', 'team_id', 'token', 'types', 'user'],
    required: [[]],
  },
  'users.info': {
    args: ['include_locale', 'token', 'user'],
    required: [['user']],
  },
  'conversations.members': {
    args: ['channel', 'cursor', 'limit', 'token'],
    required: [['channel']],
  },
  'conversations.info': {
    args: ['channel', 'include_locale', 'include_num_members', 'token'],
    required: [['channel']],
  },
  'oauth.v2.access': {
    args: ['client_id', 'client_secret', 'code', 'grant_type', 'redirect_uri', 'refresh_token'],
    required: [['client_id', 'client_secret']],
  },
  'auth.revoke': {
    args: ['test', 'token'],
    required: [[]],
  },
  'agents.sessions.setStatus': {
    args: [
      'channel_id',
      'icon_emoji',
      'icon_url',
      'initiator_user_id',
      'status',
      'thread_ts',
      'title',
      'token',
      'username',
    ],
    required: [['channel_id', 'status']],
  },
  'agents.sessions.rename': {
    args: ['channel_id', 'thread_ts', 'title', 'token'],
    required: [['channel_id', 'title']],
  },
} as const satisfies { [M in SlackServedMethod]: Row<M> };

/** Each row lists every argument of its method's type (a compile error names a missing one). */
const everyArgument: {
  [M in SlackServedMethod]: Every<
    AllKeys<ArgsOf<M>>,
    (typeof SLACK_METHOD_ARGUMENTS)[M]['args'][number]
  >;
} = {
  'chat.postMessage': true,
  'chat.update': true,
  'chat.postEphemeral': true,
  'reactions.add': true,
  'reactions.remove': true,
  'conversations.replies': true,
  'conversations.history': true,
  'auth.test': true,
  'views.open': true,
  'views.publish': true,
  'views.update': true,
  'assistant.threads.setStatus': true,
  'assistant.threads.setTitle': true,
  'assistant.threads.setSuggestedPrompts': true,
  'apps.connections.open': true,
  'chat.getPermalink': true,
  'users.conversations': true,
  'users.info': true,
  'conversations.members': true,
  'conversations.info': true,
  'oauth.v2.access': true,
  'auth.revoke': true,
  'agents.sessions.setStatus': true,
  'agents.sessions.rename': true,
};
void everyArgument;

/**
 * What the WebClient itself adds to every call: `team_id`, from its `teamId` option (Bolt sets
 * it to the installation's team, which an org-wide install needs).
 */
const CLIENT_ARGUMENTS = ['team_id'];
const clientOption: keyof WebClientOptions = 'teamId';
void clientOption;

export const SLACK_ARGUMENTS_SOURCE = "@slack/web-api's method argument types";

/** What the SDK's types refuse in a call, or nothing when it fits (or is not a Web API method). */
export function slackCallProblems(
  method: string,
  params: Record<string, unknown>,
): { error: 'unknown_method' | 'invalid_arguments'; problems: string[] } | undefined {
  if (!Object.hasOwn(SLACK_METHOD_ARGUMENTS, method))
    return { error: 'unknown_method', problems: [`${method}: not a method the fake serves`] };
  const row = SLACK_METHOD_ARGUMENTS[method as SlackServedMethod] as {
    args: readonly string[];
    required: readonly (readonly string[])[];
  };
  const given = Object.keys(params).filter((k) => params[k] !== undefined);
  const problems = given
    .filter((k) => !row.args.includes(k) && !CLIENT_ARGUMENTS.includes(k))
    .map((k) => `${k}: not an argument of ${method}`);
  if (!row.required.some((set) => set.every((k) => given.includes(k))))
    problems.push(`needs one of: ${row.required.map((s) => s.join(' + ')).join(' | ')}`);
  return problems.length === 0 ? undefined : { error: 'invalid_arguments', problems };
}
