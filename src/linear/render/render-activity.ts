/**
 * The neutral message model as Linear agent activities (Markdown bodies). A run's life reads
 * as: a `thought` when it starts ("Starting a cloud agent run…"), an ephemeral `thought` as
 * it moves (queued, running), an `elicitation` with the agent's question when it is BLOCKED,
 * a `response` with the outcome and its links when it succeeds or is cancelled, an `error`
 * with what to do when it fails. Answers to `status`, `list`, `config` and `help` are
 * responses; plain notices are thoughts, or errors when something went wrong.
 */
import type {
  LinkView,
  MessageModel,
  PersonView,
  RunView,
} from '../../core/message/message-model.js';
import type { Activity } from '../api/activity-content.js';
import { labelledUsage } from '../../core/message/usage-text.js';
import { agentMarkdown } from './agent-words.js';
import { capWords, reviewHeadline, typedAnswers } from '../../core/message/review-text.js';
import { escapeMarkdown } from './markdown-escape.js';

export { escapeMarkdown };

export const STARTING_THOUGHT = 'Starting a cloud agent run…';

function linkLine(link: LinkView): string {
  const label = escapeMarkdown(link.label);
  return link.url ? `- [${label}](${link.url})` : `- ${label}`;
}

function linksOf(run: RunView): string[] {
  const links = run.links.length > 0 ? run.links : [];
  const session =
    run.sessionLink && !links.some((l) => l.kind === 'session')
      ? [{ kind: 'session' as const, label: 'Session', url: run.sessionLink }]
      : [];
  return [...session, ...links].map(linkLine);
}

function facts(run: RunView): string {
  const parts = [`Run \`${run.runId}\``];
  if (run.runTime) parts.push(`ran for ${run.runTime}`);
  const usage = labelledUsage(run);
  if (usage) parts.push(usage);
  return parts.join(', ');
}

/** The agent's own final words, as a paragraph after the outcome line; empty when none. */
function words(run: RunView): string {
  const said = run.agentMessage?.trim();
  return said ? `\n\n${agentMarkdown(said)}` : '';
}

function outcome(run: RunView): Activity {
  const title = `**${escapeMarkdown(run.title)}**`;
  const links = linksOf(run);
  const tail = links.length > 0 ? `\n\n${links.join('\n')}` : '';
  const state = run.state;
  if (state.blocked) {
    // The agent's own question when it gave one, and the service's status line when that
    // says something else (what the run waits for, say an approval); either alone, or a
    // plain line when there is neither.
    const asked = run.agentMessage?.trim();
    const status = run.statusMessage?.trim();
    const parts = [
      ...(asked ? [agentMarkdown(asked)] : []),
      ...(status && status !== asked ? [escapeMarkdown(status)] : []),
    ];
    const question =
      parts.length > 0
        ? parts.join('\n\n')
        : 'The agent is waiting for your input. Reply here to answer.';
    return { content: { type: 'elicitation', body: `${question}${tail}` } };
  }
  if (state.success === true) {
    return {
      content: { type: 'response', body: `Done: ${title}. ${facts(run)}.${words(run)}${tail}` },
    };
  }
  if (state.name === 'CANCELLED') {
    return {
      content: {
        type: 'response',
        body: `Cancelled: ${title}. ${facts(run)}.${words(run)}${tail}`,
      },
    };
  }
  const why = run.statusMessage?.trim() ? `\n\n${escapeMarkdown(run.statusMessage.trim())}` : '';
  return {
    content: {
      type: 'error',
      body:
        `${state.label}: ${title}. ${facts(run)}.${why}${words(run)}\n\n` +
        'Open the session to see what happened, then reply here to try again or to say ' +
        `what to change.${tail}`,
    },
  };
}

/** A question about a run: an elicitation with the plan (or the cap) and the answers. */
function review(model: Extract<MessageModel, { type: 'review' }>): Activity {
  const { run, review: r } = model;
  const parts = [
    `**${escapeMarkdown(reviewHeadline(r))}**: ${escapeMarkdown(r.plan?.title ?? run.title)}`,
  ];
  if (r.kind === 'cap') parts.push(escapeMarkdown(capWords(r)));
  if (r.kind === 'action' && r.action !== undefined)
    parts.push(`It wants to: ${escapeMarkdown(r.action.what)}`);
  if (r.plan?.markdown !== undefined) parts.push(agentMarkdown(r.plan.markdown));
  if (r.plan?.url !== undefined) parts.push(`[Open the plan](${r.plan.url})`);
  if (model.full) return { content: { type: 'response', body: parts.join('\n\n') } };
  parts.push(typedAnswers(r, ''));
  return { content: { type: 'elicitation', body: parts.join('\n\n') } };
}

function runLine(run: RunView): string {
  const link = run.sessionLink ? ` ([session](${run.sessionLink}))` : '';
  return `- ${run.state.emoji} ${escapeMarkdown(run.title)}: ${run.state.label}, \`${run.runId}\`${link}`;
}

/**
 * A notice's words. One that names the person who acted ("stopped the agent: …") starts with
 * their name, as Slack's mention does; otherwise it starts with a capital.
 */
function noticeWords(text: string, mention?: PersonView): string {
  const words = escapeMarkdown(text);
  if (mention?.name) return `**${escapeMarkdown(mention.name)}** ${words}`;
  return mention ? `${words.charAt(0).toUpperCase()}${words.slice(1)}` : words;
}

/** What to write for a new message; `undefined`: nothing to write on Linear. */
export function renderActivity(message: MessageModel): Activity | undefined {
  switch (message.type) {
    case 'run_status': {
      const { run } = message;
      if (run.state.name === 'STARTING')
        return { content: { type: 'thought', body: STARTING_THOUGHT } };
      return progress(run);
    }
    case 'run_outcome':
      return outcome(message.run);
    case 'review':
      return review(message);
    case 'followup_sent':
      return { content: { type: 'thought', body: 'Sent your message to the run.' } };
    case 'run_brief': {
      // A `response` ends the session's turn in Linear: only for a run that has ended.
      const { run } = message;
      const links = linksOf({
        ...run,
        sessionLink: undefined,
        links: run.links.filter((l) => l.kind !== 'session'),
      });
      const body = `${runLine(run)}${links.length > 0 ? `\n\n${links.join('\n')}` : ''}`;
      return { content: { type: run.state.ended ? 'response' : 'thought', body } };
    }
    case 'run_list':
      return {
        content: {
          type: 'response',
          body:
            message.runs.length === 0
              ? 'No runs here yet.'
              : `${message.runs.map(runLine).join('\n')}${message.truncated ? '\n- …' : ''}`,
        },
      };
    case 'run_choice':
      return {
        content: {
          type: 'elicitation',
          body: `Which run? Reply \`${message.action} <run id>\`:\n\n${message.runs.map(runLine).join('\n')}`,
        },
      };
    case 'config':
      return {
        content: {
          type: 'response',
          body:
            message.settings.length === 0
              ? 'No defaults are set for this team.'
              : message.settings
                  .map((s) => `- \`${s.key}\` = \`${escapeMarkdown(s.value)}\``)
                  .join('\n'),
        },
      };
    case 'help':
      return {
        content: {
          type: 'response',
          body:
            'Delegate an issue to me or mention me to start a cloud agent run. In the session, ' +
            'a message goes to the run; `status`, `list` and `cancel` work too, and Stop ' +
            'cancels the run.',
        },
      };
    case 'factory_choice':
      return {
        content: {
          type: 'error',
          body: `No single factory is called \`${escapeMarkdown(message.alias)}\`.`,
        },
      };
    case 'notice': {
      const usage = message.usage ? `\n\n\`\`\`\n${message.usage}\n\`\`\`` : '';
      const body = `${noticeWords(message.text, message.mention)}${usage}`;
      if (message.tone === 'error') return { content: { type: 'error', body } };
      // Stop's confirmation ends the person's turn: Linear wants a response after a stop.
      return { content: { type: message.closing ? 'response' : 'thought', body } };
    }
  }
}

/**
 * A status edit: while the run is live, where it stands, as an ephemeral thought (it keeps
 * the session from going quiet and disappears with the next activity). An ended or BLOCKED
 * run says nothing here: its outcome is its own activity.
 */
export function progress(run: RunView): Activity | undefined {
  if (!run.state.live || run.state.blocked || run.state.ended) return undefined;
  return { content: { type: 'thought', body: `${run.state.label}…` }, ephemeral: true };
}
