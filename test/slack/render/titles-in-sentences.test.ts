/**
 * A title made from the prompt ("please center the login button…") reads well in every
 * sentence about the run: the sentence says the state first and the title follows a colon,
 * so no sentence goes on after the title ("…finished **please center…** for @alice").
 */
import { describe, expect, it } from 'vitest';
import type { MessageModel } from '../../../src/core/message/message-model.js';
import {
  runBriefMessage,
  runOutcomeMessage,
  runStatusMessage,
} from '../../../src/core/message/render-model.js';
import { toRunView } from '../../../src/core/message/run-view.js';
import { renderGitHubMarkdown } from '../../../src/github/render/render-markdown.js';
import { renderSlackMessage } from '../../../src/slack/render/render-blocks.js';

const PROMPT = 'please center the login button on mobile';

function models(state: string): MessageModel[] {
  const view = toRunView({
    run: { run_id: 'r-1', title: '', prompt: PROMPT, state, run_time: 'PT3S' },
    record: { requester: { platform: 'github', id: 'alice' } },
  });
  return [runStatusMessage(view), runOutcomeMessage(view), runBriefMessage(view, {})];
}

/** The text right after each bold title: nothing that continues the sentence. */
function after(text: string, open: string, close: string): string[] {
  const out: string[] = [];
  let at = text.indexOf(`${open}${PROMPT}`);
  while (at !== -1) {
    const end = at + open.length + PROMPT.length + close.length;
    out.push(text.slice(end, end + 5));
    at = text.indexOf(`${open}${PROMPT}`, end);
  }
  return out;
}

describe('titles in sentences', () => {
  it.each(['INPROGRESS', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'BLOCKED'])('%s', (state) => {
    let seen = 0;
    for (const model of models(state)) {
      const github = renderGitHubMarkdown(model).split('\n')[0] ?? '';
      const slack = renderSlackMessage(model).text;
      const tails = [...after(github, '**', '**'), ...after(slack, '*', '*')];
      for (const tail of tails) expect(tail, `${model.type}: "${tail}"`).not.toMatch(/^ [a-z]/);
      seen += tails.length;
    }
    expect(seen).toBeGreaterThanOrEqual(3);
  });
});
