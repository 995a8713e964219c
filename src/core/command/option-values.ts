/**
 * Validation of option values (docs/architecture.md, "Command grammar"). Values come back normalized
 * (trimmed; `mode` lower-cased; a factory alias without its '@').
 */
import type { OptionKey } from '../message/message-model.js';
import { OPTION_KEYS } from './help-text.js';
import { isRunMode, RUN_MODES } from './run-modes.js';

export type ValueCheck = { ok: true; value: string } | { ok: false; message: string };

/** `owner/repo:skill-name` or `owner/repo:path/to/SKILL.md`. */
export const SKILL_SPEC =
  /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}:(?:[A-Za-z0-9][A-Za-z0-9._-]{0,99}|(?:[A-Za-z0-9._-]+\/)*SKILL\.md)$/;
/** Model ids, environment ids, factory aliases/uids: one token, no spaces. */
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,127}$/;
const FACTORY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
const MAX_TEXT = 256;

/** A monthly budget in US dollars (`config budget=…`): whole dollars or cents. */
const BUDGET = /^\d{1,7}(?:\.\d{1,2})?$/;
export const MAX_BUDGET_USD = 1_000_000;

/** Who may follow up on a run in a channel (`config steer=…`). */
export const STEER_VALUES = ['anyone', 'requester'] as const;

/** Who may approve a plan or a capped run's going on (`config approve=…`). */
export const APPROVE_VALUES = ['requester', 'admins', 'anyone'] as const;
export type ApproveSetting = (typeof APPROVE_VALUES)[number];

/** A spending cap per run (`cap=…`), in US dollars: more than nothing, cents at most. */
const CAP = /^\d{1,6}(?:\.\d{1,2})?$/;
export const MAX_CAP_USD = 100_000;

export function isOptionKey(key: string): key is OptionKey {
  return (
    key === 'steer' ||
    key === 'budget' ||
    key === 'approve' ||
    (OPTION_KEYS as readonly string[]).includes(key)
  );
}

function freeText(key: OptionKey, value: string): ValueCheck {
  const v = value.replace(/\s+/g, ' ').trim();
  if (v.length > MAX_TEXT)
    return { ok: false, message: `${key} is longer than ${MAX_TEXT} characters` };
  return { ok: true, value: v };
}

export function checkOptionValue(key: OptionKey, raw: string): ValueCheck {
  const value = raw.trim();
  if (value === '') return { ok: false, message: `${key} needs a value` };
  switch (key) {
    case 'mode': {
      const mode = value.toLowerCase();
      return isRunMode(mode)
        ? { ok: true, value: mode }
        : { ok: false, message: `mode must be one of ${RUN_MODES.join(', ')}, not "${value}"` };
    }
    case 'skill':
      return SKILL_SPEC.test(value)
        ? { ok: true, value }
        : {
            ok: false,
            message: `skill must look like owner/repo:skill-name or owner/repo:path/to/SKILL.md, not "${value}"`,
          };
    case 'factory': {
      const alias = value.startsWith('@') ? value.slice(1) : value;
      return FACTORY.test(alias)
        ? { ok: true, value: alias }
        : { ok: false, message: `factory must be a factory alias or id, not "${value}"` };
    }
    case 'model':
    case 'env':
      return IDENTIFIER.test(value)
        ? { ok: true, value }
        : { ok: false, message: `${key} must be one id without spaces, not "${value}"` };
    case 'name':
    case 'title':
      return freeText(key, value);
    case 'budget': {
      const usd = value.startsWith('$') ? value.slice(1) : value;
      return BUDGET.test(usd) && Number(usd) <= MAX_BUDGET_USD
        ? { ok: true, value: String(Number(usd)) }
        : {
            ok: false,
            message: `budget must be an amount of US dollars such as 20 or 12.50 (at most ${MAX_BUDGET_USD}), not "${value}"`,
          };
    }
    case 'cap': {
      const usd = value.startsWith('$') ? value.slice(1) : value;
      return CAP.test(usd) && Number(usd) > 0 && Number(usd) <= MAX_CAP_USD
        ? { ok: true, value: String(Number(usd)) }
        : {
            ok: false,
            message: `cap must be an amount of US dollars above 0 such as 5 or 2.50 (at most ${MAX_CAP_USD}), not "${value}"`,
          };
    }
    case 'approve': {
      const who = value.toLowerCase();
      return (APPROVE_VALUES as readonly string[]).includes(who)
        ? { ok: true, value: who }
        : { ok: false, message: `approve must be ${APPROVE_VALUES.join(', ')}, not "${value}"` };
    }
    case 'steer': {
      const steer = value.toLowerCase();
      return (STEER_VALUES as readonly string[]).includes(steer)
        ? { ok: true, value: steer }
        : { ok: false, message: `steer must be ${STEER_VALUES.join(' or ')}, not "${value}"` };
    }
  }
}
