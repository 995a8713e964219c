import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { BOT_SCOPES } from '../../src/slack/index.js';
import { SEND_TO_AGENT_CALLBACK_ID } from '../../src/slack/shortcut/start-form.js';
import { SUGGESTED_PROMPTS } from '../../src/slack/assistant/agent-pane.js';
import { SLACK_SIGN_IN_SCOPES } from '../../src/console/identity-providers.js';

const root = new URL('../../', import.meta.url);
const manifestText = readFileSync(new URL('manifests/slack-app.yaml', root), 'utf8');
const setupDoc = readFileSync(new URL('docs/setup-slack.md', root), 'utf8');

const Manifest = z.object({
  display_information: z.object({ name: z.string().min(1), description: z.string().max(140) }),
  features: z.object({
    app_home: z.object({
      messages_tab_enabled: z.literal(true),
      messages_tab_read_only_enabled: z.literal(false),
    }),
    bot_user: z.object({ display_name: z.string().min(1) }),
    slash_commands: z
      .array(z.object({ command: z.string(), url: z.string(), description: z.string() }))
      .length(1),
  }),
  oauth_config: z.object({
    scopes: z.object({ bot: z.array(z.string()), user: z.array(z.string()) }).strict(),
  }),
  settings: z.object({
    event_subscriptions: z.object({ request_url: z.string(), bot_events: z.array(z.string()) }),
    interactivity: z.object({ is_enabled: z.literal(true), request_url: z.string() }),
    socket_mode_enabled: z.boolean(),
    org_deploy_enabled: z.boolean(),
  }),
});
const manifest = Manifest.parse(parse(manifestText));

/** Every Web API method the notifier and ingress call, and the event each listener needs. */
const NEEDED_SCOPES = [
  'app_mentions:read', // app_mention
  'channels:history', // message.channels, conversations.replies (public)
  'groups:history', // message.groups, conversations.replies (private)
  'im:history', // message.im
  'chat:write', // chat.postMessage, chat.update, chat.postEphemeral
  'reactions:write', // reactions.add
  'commands', // the slash command and the message shortcut
  'assistant:write', // the agent pane: assistant.threads.setStatus / setSuggestedPrompts
  'channels:read', // App Home: users.conversations (the viewer's public channels)
  'groups:read', // App Home: users.conversations (private channels the bot shares with the viewer)
  'users:read', // users.info: guests, people of other organisations, workspace admins
];

describe('Slack app manifest', () => {
  it('asks for exactly the bot scopes the code needs, and the user scopes of Sign in with Slack', () => {
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...NEEDED_SCOPES].sort());
    // Slack's Sign in with Slack guide: the app declares the scopes the console's sign-in asks for.
    expect([...manifest.oauth_config.scopes.user].sort()).toEqual([...SLACK_SIGN_IN_SCOPES].sort());
  });

  it('may be installed org-wide on Enterprise Grid, as the setup guide says', () => {
    expect(setupDoc).toMatch(/org-wide Enterprise Grid install/);
    expect(manifest.settings.org_deploy_enabled).toBe(true);
  });

  it('subscribes to the events the listeners handle', () => {
    expect(manifest.settings.event_subscriptions.bot_events.sort()).toEqual(
      [
        // Slack's agent experience: Stop in a run's session, the channel the person looks at.
        'agent_session_stopped',
        'app_context_changed',
        'app_home_opened',
        'app_mention',
        'app_uninstalled',
        'message.channels',
        'message.groups',
        'message.im',
        'tokens_revoked',
      ].sort(),
    );
  });

  it('asks for the same scopes when installing through OAuth', () => {
    expect([...BOT_SCOPES].sort()).toEqual([...manifest.oauth_config.scopes.bot].sort());
  });

  it('turns on App Home, the agent pane and the "Send to agent" shortcut', () => {
    const raw = parse(manifestText) as {
      features: {
        app_home: { home_tab_enabled: boolean };
        assistant_view?: unknown;
        agent_view?: { agent_description: string; suggested_prompts: unknown[] };
        shortcuts: { type: string; callback_id: string }[];
      };
      oauth_config: { redirect_urls: string[] };
    };
    expect(raw.features.app_home.home_tab_enabled).toBe(true);
    // The agent view, not the older assistant view Slack refuses for new apps.
    expect(raw.features.assistant_view).toBeUndefined();
    expect(raw.features.agent_view?.agent_description).toMatch(/stop/i);
    expect(raw.features.agent_view?.suggested_prompts).toEqual(
      SUGGESTED_PROMPTS.map(({ title, message }) => ({ title, message })),
    );
    expect(raw.features.shortcuts).toContainEqual(
      expect.objectContaining({ type: 'message', callback_id: SEND_TO_AGENT_CALLBACK_ID }),
    );
    expect(raw.oauth_config.redirect_urls).toEqual([
      'https://YOUR-HOST.example.com/slack/oauth_redirect',
      // The console's Sign in with Slack returns here (src/console).
      'https://YOUR-HOST.example.com/console/signin/slack/callback',
    ]);
  });

  it('sends everything to the one endpoint, on a placeholder host', () => {
    const urls = [
      manifest.settings.event_subscriptions.request_url,
      manifest.settings.interactivity.request_url,
      ...manifest.features.slash_commands.map((c) => c.url),
    ];
    for (const url of urls) expect(url).toBe('https://YOUR-HOST.example.com/slack/events');
    expect(manifest.features.slash_commands[0]?.command).toBe('/agent');
    expect(manifest.settings.socket_mode_enabled).toBe(false);
  });

  it('has the placeholder host as many times as the setup guide says', () => {
    const uses =
      manifestText
        .split('\n')
        .filter((line) => !line.trimStart().startsWith('#'))
        .join('\n')
        .split('YOUR-HOST.example.com').length - 1;
    const said =
      /`YOUR-HOST\.example\.com` with the public host of your agent-relay \((\w+) places/.exec(
        setupDoc.replace(/\s+/g, ' '),
      )?.[1];
    const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven'];
    expect(said, 'the setup guide says how many places').toBeDefined();
    expect(words.indexOf(said!)).toBe(uses);
  });

  it('has every scope explained in the setup guide', () => {
    const start = setupDoc.indexOf('## Bot scopes');
    const table = setupDoc.slice(start, setupDoc.indexOf('\n##', start + 1));
    const documented = [...table.matchAll(/^\| `([a-z_:.]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual([...manifest.oauth_config.scopes.bot].sort());
  });
});
