/**
 * What a person reads when the Agent Run Service refuses a request with 401 or 403, by the
 * service's error code (docs/agent-api.md, "Error codes"). Each says what happened and who
 * can do what about it, in plain words; only a 401 without a more precise code (or with
 * `authentication_required`) means the relay's API key is wrong.
 *
 * 401 `external_authentication_required` carries the requester's own link to authorize an
 * external provider. It goes to the requester alone (Slack: a private message); a public
 * answer never holds it, and where there is no private channel (GitHub) the public answer
 * says that the link was not posted and how to authorize without it.
 */
import type { MessageModel, PersonView } from '../../core/message/message-model.js';
import type { ServiceErrorLike } from '../../core/ports/index.js';

export interface Refusal {
  /** For the thread (or the asker, where the answer is private anyway). */
  message: MessageModel;
  /** For the requester alone, only when a private channel exists. */
  privateMessage?: MessageModel;
  /** An administrator or the team's owner must act (logged as an error), not the person. */
  operatorMustAct: boolean;
}

/** Refusals an administrator settles: what the person reads, without the service's detail. */
const OPERATOR_CODES: Readonly<Record<string, string>> = {
  insufficient_credits:
    'The team has run out of Agent Run Service credits, so this was not carried out. Someone who manages the team’s Agent Run Service plan needs to add credits; then ask again.',
  budget_exceeded:
    'The team’s spending limit on the Agent Run Service has been reached, so this was not carried out. Someone who manages that budget needs to raise it (or wait until it resets); then ask again.',
  feature_not_available:
    'This needs a feature that the team’s Agent Run Service plan does not include, so it was not carried out. An administrator can enable the feature or change the plan.',
  integration_disabled:
    'An integration this request needs is turned off for the team in the Agent Run Service, so it was not carried out. An administrator needs to enable it in the Agent Run Service’s settings; then ask again.',
  integration_not_configured:
    'An integration this request needs is not fully set up in the Agent Run Service, so it was not carried out. An administrator needs to finish its setup; then ask again.',
  not_authorized:
    'The Agent Run Service says this relay has no access to the environment or MCP server this request uses, so it was not carried out. Choose an environment the relay may use (`env=…`), or ask an administrator to give the relay’s key access to it.',
};

const CONTENT_POLICY =
  'The Agent Run Service refused this request because the prompt (or the setup commands of its environment) goes against its content policy. Please rephrase the request and ask again.';

const BAD_KEY =
  'The Agent Run Service rejected this relay’s API key, so nothing was started. An administrator needs to check AGENT_API_KEY.';

const KEY_NOT_ALLOWED =
  'The Agent Run Service says this relay’s API key is not allowed to do that, so nothing was done. An administrator needs to check the key’s permissions.';

/** `linear` -> `Linear`; a missing provider is "an external service". */
function providerName(provider: string | undefined): string {
  const name = provider?.trim();
  if (!name) return 'an external service';
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The service's own words about this refusal, when it gave any. */
function withDetail(text: string, detail: string | undefined): string {
  const said = detail?.trim();
  return said ? `${text} (The service said: “${said}”)` : text;
}

function notice(
  tone: 'info' | 'warning' | 'error',
  text: string,
  mention?: PersonView,
): Extract<MessageModel, { type: 'notice' }> {
  return { type: 'notice', tone, text, ...(mention ? { mention } : {}) };
}

function externalAuthentication(
  err: ServiceErrorLike,
  mention: PersonView | undefined,
  canTellPrivately: boolean,
): Refusal {
  const provider = providerName(err.provider);
  const first = `Before this can run, you need to authorize ${provider} for the Agent Run Service, so this was not carried out.`;
  if (canTellPrivately && err.authUrl) {
    return {
      message: notice(
        'warning',
        `${first} The link to do that was sent to you privately; ask again once it is done.`,
        mention,
      ),
      privateMessage: {
        ...notice(
          'info',
          `The Agent Run Service needs your permission to use ${provider} on your behalf. Authorize it with this link (it is yours alone: do not share it), then ask again:`,
        ),
        link: { label: `Authorize ${provider}`, url: err.authUrl },
      },
      operatorMustAct: false,
    };
  }
  // No private channel here: the personal link is never posted in public.
  const how = canTellPrivately
    ? `Sign in to the Agent Run Service and connect ${provider} there, then ask again.`
    : `The authorization link is personal, so it was not posted in this public conversation: sign in to the Agent Run Service and connect ${provider} there (or ask from Slack, where the link is sent privately), then ask again.`;
  return { message: notice('warning', `${first} ${how}`, mention), operatorMustAct: false };
}

/** The refusal for a 401/403 answer; undefined for any other error. */
export function refusalFor(
  err: ServiceErrorLike,
  input: { mention?: PersonView; canTellPrivately: boolean },
): Refusal | undefined {
  if (err.code !== 'authentication' && err.code !== 'permission_denied') return undefined;
  const { mention } = input;
  const code = err.serviceCode;
  if (code === 'external_authentication_required') {
    return externalAuthentication(err, mention, input.canTellPrivately);
  }
  if (code === 'content_policy_violation') {
    return {
      message: notice('error', withDetail(CONTENT_POLICY, err.detail), mention),
      operatorMustAct: false,
    };
  }
  const operator = code === undefined ? undefined : OPERATOR_CODES[code];
  if (operator !== undefined) {
    return {
      message: notice('error', withDetail(operator, err.detail), mention),
      operatorMustAct: true,
    };
  }
  const text = err.code === 'authentication' ? BAD_KEY : KEY_NOT_ALLOWED;
  return { message: notice('error', text, mention), operatorMustAct: true };
}
