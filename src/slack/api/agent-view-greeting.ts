/**
 * What the agent pane offers a person who opens it: the suggested prompts, in an assistant
 * thread (`assistant_thread_started`, the assistant view) or, under Slack's agent messaging
 * (`agent_view`), at the top of their conversation with the app: opening its Messages tab
 * sends `app_home_opened` with `tab: "messages"` instead (Slack's "migrating to agent
 * messaging" guide), and `assistant.threads.setSuggestedPrompts` takes no thread there.
 */
import type { WebClient } from './web-client.js';

export const SUGGESTED_PROMPTS = [
  { title: 'Summarise this channel', message: 'Summarise the latest discussion in this channel' },
  { title: 'Fix a bug', message: 'Fix the bug where ' },
  { title: 'My runs', message: 'list mine' },
];

/** The agent view's greeting, set each time the person opens the Messages tab. */
export async function greetAgentView(client: WebClient, channel: string): Promise<void> {
  await client.assistant.threads.setSuggestedPrompts({
    channel_id: channel,
    title: "Tell me what to do and I'll start a cloud agent run",
    prompts: SUGGESTED_PROMPTS,
  });
}
