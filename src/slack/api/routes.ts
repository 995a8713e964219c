/**
 * Where the Slack surfaces register what they handle: by event type, action id, view and
 * shortcut callback id, and command name, each looked up in a table by one Bolt listener per
 * kind of payload.
 *
 * Bolt runs every registered listener's matchers for every request (each an async step), so
 * with a listener per event type, button and form, an `app_mention` went through a dozen
 * chains before it was acknowledged, and they interleaved with the one that writes the
 * trigger. Here at most five listeners exist, and a request reaches its handler by a map
 * lookup. Handlers receive exactly what Bolt gives a listener.
 */
import type {
  AllMiddlewareArgs,
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

/** Any key: the table decides. */
const EVERY = /(?:)/;

type Handler<A> = (args: A & AllMiddlewareArgs) => Promise<void>;

/**
 * One table per kind of payload; its Bolt listener is registered with the first handler.
 * A key registered twice is a programming error and throws at start-up.
 */
function table<A>(
  kind: string,
  listen: (dispatch: Handler<A>) => void,
  keyOf: (args: A) => unknown,
) {
  const handlers = new Map<string, Handler<A>>();
  return (key: string, handler: Handler<A>) => {
    if (handlers.has(key)) throw new Error(`Slack ${kind} "${key}" has two handlers`);
    if (handlers.size === 0)
      listen(async (args) => {
        const found = handlers.get(String(keyOf(args)));
        if (found !== undefined) await found(args);
      });
    handlers.set(key, handler);
  };
}

export function createSlackRoutes(app: App): SlackRoutes {
  const event = table<SlackEventMiddlewareArgs>(
    'event',
    (dispatch) => app.event(EVERY, dispatch),
    (args) => args.event.type,
  );
  const action = table<SlackActionMiddlewareArgs>(
    'action',
    (dispatch) => app.action(EVERY, dispatch),
    (args) => ('action_id' in args.action ? args.action.action_id : undefined),
  );
  const view = table<SlackViewMiddlewareArgs>(
    'view',
    (dispatch) => app.view(EVERY, dispatch),
    (args) => args.view.callback_id,
  );
  const shortcut = table<SlackShortcutMiddlewareArgs>(
    'shortcut',
    (dispatch) => app.shortcut(EVERY, dispatch),
    (args) => args.shortcut.callback_id,
  );
  const command = table<SlackCommandMiddlewareArgs>(
    'command',
    (dispatch) => app.command(EVERY, dispatch),
    (args) => args.command.command,
  );
  return {
    event: (type, handler) => event(type, handler as unknown as Handler<SlackEventMiddlewareArgs>),
    action,
    view,
    shortcut,
    command,
  };
}
