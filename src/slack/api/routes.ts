/**
 * Where the Slack surfaces register what they handle: by event type, action id, view and
 * shortcut callback id, and command name. Each registration is a Bolt listener of its own (a
 * table in front of Bolt, one listener per kind of payload, saved no CPU per mention measured
 * side by side: docs/decisions/speed-mechanisms.md). A key registered twice is a programming
 * error and throws at start-up. Handlers receive exactly what Bolt gives a listener.
 */
import type {
  App,
  Middleware,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
} from '@slack/bolt';

export type EventHandler<T extends string> = Middleware<SlackEventMiddlewareArgs<T>>;
export type ActionHandler = Middleware<SlackActionMiddlewareArgs>;
export type ViewHandler = Middleware<SlackViewMiddlewareArgs>;
export type ShortcutHandler = Middleware<SlackShortcutMiddlewareArgs>;
export type CommandHandler = Middleware<SlackCommandMiddlewareArgs>;

export interface SlackRoutes {
  /** Events API events of this type (`app_mention`, `message`, `app_home_opened`, ...). */
  event<T extends string>(type: T, handler: EventHandler<T>): void;
  /** Block actions (buttons) with this `action_id`. */
  action(actionId: string, handler: ActionHandler): void;
  /** View submissions of the form with this `callback_id`. */
  view(callbackId: string, handler: ViewHandler): void;
  /** Global and message shortcuts with this `callback_id`. */
  shortcut(callbackId: string, handler: ShortcutHandler): void;
  /** The slash command with this name (`/agent`). */
  command(name: string, handler: CommandHandler): void;
}

/** Throws when a key of one kind is registered twice. */
function onceEach(kind: string): (key: string) => void {
  const keys = new Set<string>();
  return (key) => {
    if (keys.has(key)) throw new Error(`Slack ${kind} "${key}" has two handlers`);
    keys.add(key);
  };
}

export function createSlackRoutes(app: App): SlackRoutes {
  const event = onceEach('event');
  const action = onceEach('action');
  const view = onceEach('view');
  const shortcut = onceEach('shortcut');
  const command = onceEach('command');
  return {
    event: (type, handler) => {
      event(type);
      app.event(type, handler);
    },
    action: (actionId, handler) => {
      action(actionId);
      app.action(actionId, handler);
    },
    view: (callbackId, handler) => {
      view(callbackId);
      app.view(callbackId, handler);
    },
    shortcut: (callbackId, handler) => {
      shortcut(callbackId);
      app.shortcut(callbackId, handler);
    },
    command: (name, handler) => {
      command(name);
      app.command(name, handler);
    },
  };
}
