/**
 * Pieces shared by the run renderers: who asked, which settings applied and where each came
 * from, links, and the buttons. All user and service text is escaped here.
 */
import type {
  AppliedSetting,
  LinkView,
  PersonView,
  RunView,
} from '../../core/message/message-model.js';
import { shortRunId } from '../../core/message/short-run-id.js';
import type { Button, KnownBlock } from './blocks.js';
import {
  CANCEL_ACTION_ID,
  STOP_ACTION_ID,
  OPEN_SESSION_ACTION_ID,
  actions,
  section,
  urlButton,
  valueButton,
} from './blocks.js';
import {
  code,
  escapeMrkdwn,
  link,
  mentionUser,
  oneLine,
  quote,
  safeUrl,
  truncatePlain,
} from './mrkdwn.js';

const SOURCE_LABEL: Record<AppliedSetting['source'], string> = {
  inline: 'inline',
  personal: 'your default',
  default: 'channel default',
  service: 'service default',
  repository: "this repository's environment",
};

/** `<@U…>` for a Slack person; a GitHub person by login, saying where it is from. */
export function person(p: PersonView): string {
  if (p.platform === 'slack') return mentionUser(p.id, p.name);
  return escapeMrkdwn(`@${p.id} (GitHub)`);
}

/**
 * "model `x` _(inline)_" for each setting someone chose, plus the factory; what the service
 * chose is said once: "_service defaults:_ skill, env `e-1`".
 */
export function settingsParts(run: RunView): string[] {
  const value = (v: string | undefined) =>
    v === undefined ? '' : ` ${code(truncatePlain(v, 120))}`;
  const parts = run.applied
    .filter((s) => s.source !== 'service')
    .map((s) => `${s.key}${value(s.value)} _(${SOURCE_LABEL[s.source]})_`);
  const byService = run.applied.filter((s) => s.source === 'service');
  if (byService.length > 0) {
    parts.push(
      `_service defaults:_ ${byService.map((s) => `${s.key}${value(s.value)}`).join(', ')}`,
    );
  }
  for (const s of run.applied) {
    if (s.note) parts.push(`_${escapeMrkdwn(truncatePlain(oneLine(s.note), 300))}_`);
  }
  const f = run.factory;
  if (f !== undefined && !run.applied.some((s) => s.key === 'factory')) {
    const name = f.name ?? f.alias;
    if (name !== undefined)
      parts.push(`factory ${escapeMrkdwn(truncatePlain(oneLine(name), 120))}`);
  }
  return parts;
}

/** The context line under a run: requester, settings, run id. */
export function runContextParts(run: RunView): string[] {
  const first = run.requester === undefined ? [] : [`Requested by ${person(run.requester)}`];
  // A run that is still starting has no id yet.
  const id = run.runId === '' ? [] : [`run ${code(shortRunId(run.runId))}`];
  return [...first, ...settingsParts(run), ...id];
}

/** Links other than the session (which has its own button). */
export function artifactLinks(run: RunView): LinkView[] {
  return run.links.filter((l) => l.kind !== 'session' || safeUrl(run.sessionLink) === undefined);
}

const LINK_LABEL: Record<LinkView['kind'], string> = {
  session: 'Session',
  pull_request: 'Pull request',
  plan: 'Plan',
  reference: 'Reference',
  file: 'File',
  screenshot: 'Screenshot',
  run: 'Run',
};

export function linksSection(links: LinkView[]): KnownBlock | undefined {
  if (links.length === 0) return undefined;
  // Labels already say what each is ("PR: o/r#7", "Plan: …"); the kind is the fallback.
  const lines = links.map((l) => {
    const label = truncatePlain(oneLine(l.label) || LINK_LABEL[l.kind], 200);
    return `• ${link(l.url, label)}`;
  });
  return section(lines.join('\n'));
}

/**
 * "Open session" (when there is a link), "Stop" (interrupt: the run waits for a reply) and
 * "Cancel" (end the run), the last two while the run is live and may be cancelled.
 */
export function runButtons(run: RunView, withCancel: boolean): KnownBlock | undefined {
  const buttons: Button[] = [];
  const session = safeUrl(run.sessionLink);
  if (session !== undefined) {
    const button = urlButton('Open session', session, OPEN_SESSION_ACTION_ID);
    button.accessibility_label = truncatePlain(`Open the session of ${oneLine(run.title)}`, 75);
    buttons.push(button);
  }
  if (withCancel && run.state.live && run.actions.includes('cancel')) {
    const stop = valueButton('Stop', run.runId, STOP_ACTION_ID);
    stop.accessibility_label = truncatePlain(
      `Stop what the agent is doing on ${oneLine(run.title)}`,
      75,
    );
    buttons.push(stop);
  }
  if (withCancel && run.state.live && run.actions.includes('cancel')) {
    const button = valueButton('Cancel', run.runId, CANCEL_ACTION_ID, {
      style: 'danger',
      confirm: {
        title: 'Cancel this run?',
        text: `The agent stops working on *${escapeMrkdwn(truncatePlain(oneLine(run.title), 200))}*.`,
        confirm: 'Cancel run',
        deny: 'Keep it running',
      },
    });
    button.accessibility_label = truncatePlain(`Cancel the run ${oneLine(run.title)}`, 75);
    buttons.push(button);
  }
  return buttons.length === 0 ? undefined : actions('agent_relay_run_actions', buttons);
}

/** What a person can do after a run that did not succeed (a thread reply is a follow-up). */
export function nextStepText(run: RunView): string | undefined {
  if (run.state.success !== false) return undefined;
  const again = run.state.name === 'CANCELLED' ? 'to resume it' : 'to retry with more guidance';
  return `*Next:* Reply in this thread ${again}, or start over with ${code('new <prompt>')}.`;
}

/** The service's status message, quoted, when it matters (failure, BLOCKED). */
export function statusMessageSection(run: RunView): KnownBlock | undefined {
  const message = run.statusMessage?.trim();
  if (message === undefined || message === '') return undefined;
  if (!(run.state.blocked || run.state.success === false)) return undefined;
  const heading = run.state.blocked ? 'The agent says' : 'What happened';
  return section(`*${heading}:*\n${quote(truncatePlain(message, 2800))}`);
}
