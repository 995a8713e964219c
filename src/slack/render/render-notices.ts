/** The short messages: `config`, `help`, notices (errors, refusals) and factory choices. */
import { OPTION_DOCS, USAGE } from '../../core/command/help-text.js';
import type { MessageModel } from '../../core/message/message-model.js';
import { context, section } from './blocks.js';
import {
  code,
  codeBlock,
  escapeMrkdwn,
  link,
  mentionChannel,
  mentionUser,
  oneLine,
  truncatePlain,
} from './mrkdwn.js';
import { person } from './render-run-parts.js';
import type { Rendered } from './render-run.js';

type Of<T extends MessageModel['type']> = Extract<MessageModel, { type: T }>;

/** `<#C…>` for a channel; "this conversation" for a DM; the scope itself otherwise. */
function scopeName(scope: string): string {
  const channel = /^slack:[^:]+:([A-Za-z0-9]+)$/.exec(scope)?.[1];
  if (channel === undefined) return code(scope);
  if (channel.startsWith('D')) return 'this conversation';
  return mentionChannel(channel) ?? code(scope);
}

export function renderConfig(model: Of<'config'>): Rendered {
  const where = scopeName(model.scope);
  const lines = model.settings.map((s) => {
    const by = s.updatedBy === undefined ? '' : ` (set by ${mentionUser(s.updatedBy)})`;
    const changed = model.changed.includes(s.key) ? ' _changed_' : '';
    return `• ${s.key} = ${code(truncatePlain(s.value, 200))}${by}${changed}`;
  });
  const unset = model.changed.filter((k) => !model.settings.some((s) => s.key === k));
  for (const key of unset) lines.push(`• ${key} _removed_`);
  const body =
    lines.length === 0
      ? `*Defaults for ${where}:* none set, so the service's defaults apply.`
      : `*Defaults for ${where}:*\n${lines.join('\n')}`;
  const blocks = [
    section(body),
    context(['Inline options beat these defaults, which beat the service defaults.']),
  ];
  const text =
    model.changed.length > 0 ? `Defaults updated: ${model.changed.join(', ')}` : 'Channel defaults';
  return { text, blocks };
}

export function renderHelp(model: Of<'help'>): Rendered {
  const invocation = oneLine(model.invocation);
  const usage = USAGE.map(
    (u) => `• ${code(`${invocation} ${u.form}`)}: ${escapeMrkdwn(u.meaning)}`,
  );
  const options = model.options.map(
    (key) => `• ${code(OPTION_DOCS[key].form)}: ${escapeMrkdwn(OPTION_DOCS[key].meaning)}`,
  );
  const blocks = [section(`*How to use ${code(invocation)}*\n${usage.join('\n')}`)];
  if (options.length > 0) {
    blocks.push(
      section(
        '*Options* lead the prompt as `key=value` or `[key=value, …]`:\n' + options.join('\n'),
      ),
    );
  }
  blocks.push(context(["Reply in a run's thread to send the agent a follow-up."]));
  return { text: `How to use ${escapeMrkdwn(invocation)}`, blocks };
}

const TONE_EMOJI: Record<Of<'notice'>['tone'], string> = {
  info: 'ℹ️',
  warning: '⚠️',
  error: '❌',
};

export function renderNotice(model: Of<'notice'>): Rendered {
  const who = model.mention === undefined ? '' : `${person(model.mention)} `;
  const words = escapeMrkdwn(truncatePlain(model.text.trim(), 2000));
  const usage = model.usage === undefined ? '' : `\n${codeBlock(truncatePlain(model.usage, 800))}`;
  const linked = model.link === undefined ? '' : ` ${link(model.link.url, model.link.label)}`;
  const blocks = [section(`${TONE_EMOJI[model.tone]} ${who}${words}${linked}${usage}`)];
  return { text: `${who}${escapeMrkdwn(truncatePlain(oneLine(model.text), 300))}`, blocks };
}

export function renderFactoryChoice(model: Of<'factory_choice'>): Rendered {
  const alias = code(model.alias);
  if (model.candidates.length === 0) {
    const known = (model.available ?? []).filter((f) => f.alias !== undefined).slice(0, 20);
    const choices =
      known.length === 0
        ? ' Check the alias and try again.'
        : ` Factories you can name: ${known.map((f) => `${code(`@${f.alias ?? ''}`)} (${escapeMrkdwn(truncatePlain(oneLine(f.name), 60))})`).join(', ')}.`;
    const text = `No factory matches ${alias}.${choices}`;
    return { text, blocks: [section(`🏭 ${text}`)] };
  }
  const lines = model.candidates.slice(0, 20).map((c) => {
    const a = c.alias === undefined ? '' : ` ${code(`@${c.alias}`)}`;
    return `• *${escapeMrkdwn(truncatePlain(oneLine(c.name), 100))}*${a} ${code(c.uid)}`;
  });
  const more = model.candidates.length > 20 ? `\n…and ${model.candidates.length - 20} more` : '';
  const blocks = [
    section(`🏭 Several factories match ${alias}:\n${lines.join('\n')}${more}`),
    context([`Name one by its exact alias: ${code('factory <alias> <prompt>')}.`]),
  ];
  return { text: `Several factories match ${alias}`, blocks };
}
